import { statSync } from 'node:fs';

type Identity = { dev: number; ino: number };

/** SQLite's files of a database in WAL mode: the database, its write-ahead log and its shared-memory index. */
const SUFFIXES = ['', '-wal', '-shm'] as const;

/**
 * The file guard: the identity (device and inode) of each SQLite file the
 * service opened (the database, its `-wal` and its `-shm`), compared with
 * whatever is at their paths now. SQLite keeps writing into an open file after it is deleted
 * or replaced, and answers success: without this check the service would
 * acknowledge writes that exist nowhere once it restarts (a deleted `-wal`
 * holds the newest commits; a new empty database would hand out ids from 1
 * again), and a connection opened afterwards (a readiness probe, a restart)
 * would read a log that does not match the index, and corrupt the database.
 */
export class SqliteFileGuard {
  private readonly opened = new Map<string, Identity>();

  constructor(readonly path: string) {}

  /**
   * Records the database file now at the path as the one the service has
   * open. The first connection's file is the one: a later connection (the
   * writing one) that opened another file at the same path is caught by
   * {@link problem}. The `-wal` and `-shm` files, which SQLite makes once WAL
   * is on, are recorded by the first check that finds them (at startup, on the
   * migrations' first write).
   */
  record(): void {
    if (this.opened.has(this.path)) return;
    const stat = statSync(this.path);
    this.opened.set(this.path, { dev: stat.dev, ino: stat.ino });
  }

  /** What is wrong, if a file at the paths is no longer the one the service has open. */
  problem(): string | undefined {
    if (!this.opened.has(this.path)) return undefined;
    for (const suffix of SUFFIXES) {
      const path = this.path + suffix;
      const opened = this.opened.get(path);
      let stat;
      try {
        stat = statSync(path);
      } catch (error) {
        if (opened === undefined) continue;
        return `the database file ${path} is gone (${(error as NodeJS.ErrnoException).code})`;
      }
      if (opened === undefined) this.opened.set(path, { dev: stat.dev, ino: stat.ino });
      else if (stat.dev !== opened.dev || stat.ino !== opened.ino) {
        return `the database file ${path} was replaced by another file`;
      }
    }
    return undefined;
  }

  /** The error a write must fail with when a file is no longer the one open, or `null`. */
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
