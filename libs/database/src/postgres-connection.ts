import { Client, type QueryResult } from 'pg';

/** node-postgres' message when `query_timeout` ran out before the server answered. */
const READ_TIMEOUT = 'Query read timeout';

/**
 * node-postgres' Client, except that a statement the server has not answered within `query_timeout` takes its
 * connection with it. node-postgres answers the caller when the timeout fires but leaves the statement in flight and the
 * connection in the pool as if healthy: after a stalled server resumes, that connection runs the next caller's
 * statements inside whatever transaction was open on it (an INSERT answered 201 and never committed), or in an aborted
 * one (every statement refused). Closed instead, the server rolls back what was open on it, and the pool, which takes
 * back no connection that cannot be queried, opens a fresh one.
 */
export class PostgresConnection extends Client {
  // The promise form, the one TypeORM calls; the callback form and query objects are node-postgres' own.
  override query(...args: unknown[]): never {
    const [config, values, callback] = args;
    if (typeof callback === 'function' || typeof values === 'function' || isQueryObject(config)) {
      return (super.query as (...forwarded: unknown[]) => never)(...args);
    }
    return new Promise<QueryResult>((resolve, reject) => {
      (super.query as (...forwarded: unknown[]) => void)(config, values, (error: Error | null, result: QueryResult) => {
        if (error?.message === READ_TIMEOUT) this.discard();
        if (error) reject(error);
        else resolve(result);
      });
    }) as never;
  }

  /**
   * Closes the socket, and marks the client as not queryable at once: node-postgres would do so only once the socket's
   * end is read, after the caller has given the connection back to the pool (which reads `_queryable` as it does).
   */
  discard(): void {
    (this as unknown as { _queryable: boolean })._queryable = false;
    (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  }
}

function isQueryObject(config: unknown): boolean {
  return typeof config === 'object' && config !== null && typeof (config as { submit?: unknown }).submit === 'function';
}
