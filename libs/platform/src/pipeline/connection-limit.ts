import type { ServerResponse, Server } from 'node:http';
import type { Socket } from 'node:net';

/** A connection younger than this is never shed, nor one that moved a byte in the last this long. */
const GRACE_MS = 250;

/** What a shedding pass last saw of a connection, to tell a stalled one from a busy one. */
interface Seen {
  openedAt: number;
  /** Bytes read from the client plus bytes the kernel took from us, at `at`. */
  moved: number;
  at: number;
}

/**
 * At most `max` open connections, so that a flood of connections cannot use
 * up the process's open files (after which every new connection fails,
 * health checks included). Past 90 % of `max`, connections that hold nothing
 * back are closed, the longest without a byte moved first, to keep room for
 * new ones such as a load balancer's health check:
 * - idle ones (no request in flight), older than GRACE_MS;
 * - stalled ones: a request in flight whose client moved no byte for GRACE_MS
 *   while the server waits on it: for its body (a body that never comes), or
 *   to take answers already written (a client that pipelines requests and
 *   never reads). A request the service itself is still working on is never
 *   shed.
 * At `max`, Node closes each new connection at once, which costs next to
 * nothing, and that too sheds for the next one.
 */
export function limitConnections(server: Server, max: number): void {
  server.maxConnections = max;
  const shedAbove = Math.floor(max * 0.9);
  const open = new Map<Socket, Seen>();
  let pending: NodeJS.Timeout | undefined;
  const shed = () => {
    pending = undefined;
    if (open.size <= shedAbove) return;
    shedIdleOrStalled(open, shedAbove);
    // The connections too young to shed now may be idle or stalled ones in a moment.
    if (open.size > shedAbove) pending ??= setTimeout(shed, GRACE_MS).unref();
  };
  server.on('connection', (socket: Socket) => {
    const now = Date.now();
    open.set(socket, { openedAt: now, moved: 0, at: now });
    socket.once('close', () => open.delete(socket));
    if (open.size > shedAbove) shed();
  });
  server.on('drop', shed);
}

function shedIdleOrStalled(open: Map<Socket, Seen>, keep: number): void {
  const now = Date.now();
  const sheddable: Array<[Socket, Seen]> = [];
  for (const [socket, seen] of open) {
    const moved = socket.bytesRead + socket.bytesWritten - socket.writableLength;
    if (moved !== seen.moved) {
      seen.moved = moved;
      seen.at = now;
    }
    if (now - seen.openedAt <= GRACE_MS) continue;
    // Node's HTTP server sets `_httpMessage` while a response is in progress on the socket.
    const response = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    const waitingOnClient = socket.writableLength > 0 || response?.req?.complete === false;
    if (!response || (waitingOnClient && now - seen.at > GRACE_MS)) sheddable.push([socket, seen]);
  }
  // The longest without a byte first: a health checker's kept-alive connection, busy every few seconds, goes last.
  sheddable.sort(([, a], [, b]) => a.at - b.at);
  for (const [socket] of sheddable) {
    if (open.size <= keep) return;
    open.delete(socket);
    socket.destroy();
  }
}
