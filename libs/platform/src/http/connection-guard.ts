import type { Server } from 'node:http';

/**
 * What bounds the connections a server keeps open and the requests waiting on each: a port a capability provides (the
 * connection-limits library), run first in the request pipeline, before any request is read. Without one, Node takes
 * every connection and every pipelined request it is sent.
 */
export abstract class ConnectionGuard {
  /** Installs the bounds on `server`, before it listens. */
  abstract guard(server: Server): void;
}
