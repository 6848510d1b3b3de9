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
  /** A statement is written, held back to go out with the next one ({@link sendWithNext}). */
  private holding = false;

  // The promise form, the one TypeORM calls; the callback form and query objects are node-postgres' own.
  override query(...args: unknown[]): never {
    try {
      return this.submit(args);
    } finally {
      // In pipeline mode a statement is written as it is submitted: the one held back goes out with it, one write.
      this.flush();
    }
  }

  /** Writes the statement held back for the next one now: there is no next one. */
  flush(): void {
    if (this.holding) {
      this.holding = false;
      this.stream.uncork();
    }
  }

  /**
   * Sends `sql` (no parameters) with the statement sent next on this connection, in one write to the socket: with
   * pipeline mode, one round trip for both (a transaction's begin and its first statement).
   */
  sendWithNext(sql: string): Promise<QueryResult> {
    if (!this.holding) {
      this.stream.cork();
      this.holding = true;
    }
    return this.submit([sql]);
  }

  /** What `send` sends, in one write to the socket (a transaction's last statement and its COMMIT). */
  together<T>(send: () => T): T {
    this.stream.cork();
    try {
      return send();
    } finally {
      this.stream.uncork();
    }
  }

  private get stream(): { cork(): void; uncork(): void; destroy(): void } {
    return (this as unknown as { connection: { stream: { cork(): void; uncork(): void; destroy(): void } } }).connection
      .stream;
  }

  private submit(args: unknown[]): never {
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
    this.stream.destroy();
  }
}

function isQueryObject(config: unknown): boolean {
  return typeof config === 'object' && config !== null && typeof (config as { submit?: unknown }).submit === 'function';
}
