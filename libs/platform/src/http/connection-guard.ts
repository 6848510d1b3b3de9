import type { Server } from 'node:http';

/**
 * Bounds on the open connections and the requests waiting on each: a port the connection-limits library provides,
 * installed before any request is read. Without one, Node takes all it is sent.
 */
export abstract class ConnectionGuard {
  /** Installs the bounds on `server`, before it listens. */
  abstract guard(server: Server): void;
}
