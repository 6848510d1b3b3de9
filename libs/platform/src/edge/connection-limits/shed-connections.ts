import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { OpenConnections } from '../../lifecycle/open-connections';

/** A connection younger than this is never shed, nor one that moved a byte in the last this long. */
const GRACE_MS = 250;

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
export function limitConnections(
  server: Server,
  max: number,
  onClosed: (reason: 'shed' | 'limit') => void = () => undefined,
): { isFull(): boolean } {
  server.maxConnections = max;
  const shedAbove = Math.floor(max * 0.9);
  const open = OpenConnections.of(server);
  let pending: NodeJS.Timeout | undefined;
  const shed = () => {
    pending = undefined;
    if (open.size <= shedAbove) return;
    for (let count = shedIdleOrStalled(open, shedAbove); count > 0; count--) onClosed('shed');
    // The connections too young to shed now may be idle or stalled ones in a moment.
    if (open.size > shedAbove) pending ??= setTimeout(shed, GRACE_MS).unref();
  };
  // After the registry's own listener: the new connection is counted.
  server.on('connection', () => {
    if (open.size > shedAbove) shed();
  });
  server.on('drop', () => {
    onClosed('limit');
    shed();
  });
  // Full: at `max` once whatever can be shed was, so a new connection would be closed at once.
  return {
    isFull() {
      if (open.size > shedAbove) shed();
      return open.size >= max;
    },
  };
}

/** Closes idle and stalled connections until `keep` are left, or none can be closed: how many it closed. */
function shedIdleOrStalled(open: OpenConnections, keep: number): number {
  const now = Date.now();
  const sheddable: Array<[Socket, number]> = [];
  for (const socket of open) {
    const movedAt = open.lastMovedAt(socket, now);
    if (open.ageOf(socket, now) <= GRACE_MS) continue;
    const response = open.responseOn(socket);
    const waitingOnClient = socket.writableLength > 0 || response?.req?.complete === false;
    if (!response || (waitingOnClient && now - movedAt > GRACE_MS)) sheddable.push([socket, movedAt]);
  }
  // The longest without a byte first: a health checker's kept-alive connection, busy every few seconds, goes last.
  sheddable.sort(([, a], [, b]) => a - b);
  let closed = 0;
  for (const [socket] of sheddable) {
    if (open.size <= keep) break;
    open.close(socket);
    closed++;
  }
  return closed;
}
