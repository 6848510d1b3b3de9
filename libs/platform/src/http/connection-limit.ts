import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** A connection younger than this is never shed: it may be a health check whose request is on its way. */
const GRACE_MS = 250;

/**
 * At most `max` open connections, so that a flood of idle connections cannot
 * use up the process's open files (after which every new connection fails,
 * health checks included). Past 90 % of `max`, connections that are idle (no
 * request in flight) and older than GRACE_MS are closed, oldest first, which
 * keeps room for new ones such as a load balancer's health check; at `max`,
 * Node closes each new connection at once, which costs next to nothing, and
 * that too sheds idle ones for the next.
 */
export function limitConnections(server: Server, max: number): void {
  server.maxConnections = max;
  const shedAbove = Math.floor(max * 0.9);
  const open = new Map<Socket, number>();
  let pending: NodeJS.Timeout | undefined;
  const shed = () => {
    pending = undefined;
    if (open.size <= shedAbove) return;
    shedIdle(open, shedAbove);
    // The connections too young to shed now may be idle ones in a moment.
    if (open.size > shedAbove) pending ??= setTimeout(shed, GRACE_MS).unref();
  };
  server.on('connection', (socket: Socket) => {
    open.set(socket, Date.now());
    socket.once('close', () => open.delete(socket));
    if (open.size > shedAbove) shed();
  });
  server.on('drop', shed);
}

function shedIdle(open: Map<Socket, number>, keep: number): void {
  const now = Date.now();
  for (const [socket, since] of open) {
    if (open.size <= keep) return;
    // Node's HTTP server sets `_httpMessage` while a response is in progress on the socket.
    const busy = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
    if (!busy && now - since > GRACE_MS) {
      open.delete(socket);
      socket.destroy();
    }
  }
}
