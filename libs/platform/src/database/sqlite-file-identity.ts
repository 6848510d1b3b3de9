import { statSync } from 'node:fs';

/**
 * The identity (device and inode) of the SQLite file the service opened,
 * compared with whatever is at its path now. SQLite keeps writing into an
 * open file after it is deleted or replaced, and answers success: without
 * this check the service would acknowledge writes that exist nowhere once it
 * restarts (and a new empty file would hand out ids from 1 again).
 */
export class SqliteFileIdentity {
  private opened?: { dev: number; ino: number };

  constructor(readonly path: string) {}

  /**
   * Records the file now at the path as the one the service has open. The
   * first connection's file is the one: a later connection (a writing one) that
   * opened another file at the same path is caught by {@link problem}.
   */
  record(): void {
    if (this.opened) return;
    const stat = statSync(this.path);
    this.opened = { dev: stat.dev, ino: stat.ino };
  }

  /** What is wrong, if the file at the path is no longer the one the service has open. */
  problem(): string | undefined {
    if (!this.opened) return undefined;
    let stat;
    try {
      stat = statSync(this.path);
    } catch (error) {
      return `the database file ${this.path} is gone (${(error as NodeJS.ErrnoException).code})`;
    }
    if (stat.dev !== this.opened.dev || stat.ino !== this.opened.ino) {
      return `the database file ${this.path} was replaced by another file`;
    }
    return undefined;
  }

  /** The error a write must fail with when the file is no longer the one open, or `null`. */
  detachedError(): DatabaseFileDetachedError | null {
    const problem = this.problem();
    return problem ? new DatabaseFileDetachedError(problem) : null;
  }
}

/**
 * A write reached a database file that is no longer at its path: it is not
 * acknowledged (503), and the service stays unready until it is restarted on a
 * restored file.
 */
export class DatabaseFileDetachedError extends Error {
  readonly code = 'SQLITE_DETACHED';

  constructor(problem: string) {
    super(`${problem}: writes are refused until the service is restarted on a restored database`);
    this.name = 'DatabaseFileDetachedError';
  }
}
