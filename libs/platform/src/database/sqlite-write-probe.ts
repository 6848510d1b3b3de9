import { Database } from 'sqlite3';

/**
 * Whether a write could start now: takes SQLite's write lock on a connection
 * of its own and releases it at once. In WAL mode another process holding the
 * write lock (a backup, a migration, a stuck tool) blocks every insert while
 * reads go on, so a read probe alone would report "ready" while every write
 * fails. A separate connection, because the service's single TypeORM
 * connection is shared by all requests and must never run someone else's
 * BEGIN/ROLLBACK.
 */
export function probeSqliteWrite(path: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const db = new Database(path, (openError) => {
      if (openError) return reject(openError);
      db.configure('busyTimeout', timeoutMs);
      db.exec('BEGIN IMMEDIATE; ROLLBACK;', (error) => db.close(() => (error ? reject(error) : resolve())));
    });
  });
}
