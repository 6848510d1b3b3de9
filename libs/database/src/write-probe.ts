import { Database, OPEN_READWRITE } from 'sqlite3';
import type { DataSource } from 'typeorm';
import type { DatabaseLocation } from '@app/platform';

const probeStatement = () => `UPDATE platform_write_probe SET probed_at = '${new Date().toISOString()}' WHERE id = 1`;

/**
 * Whether a write reaches the database now: rewrites the probe row and commits.
 * A lock probe (`BEGIN IMMEDIATE; ROLLBACK`) succeeds on a read-only file, a
 * full disk or failing storage, while every real write fails.
 *
 * On SQLite it runs on a connection of its own, opened without the create
 * flag, so that it never makes a new empty file where the database was, and
 * never runs a transaction on the service's one shared connection (nor queues
 * the requests behind its lock wait). On PostgreSQL it is one statement
 * through the pool, bounded by the statement timeout.
 */
export function probeWrite(location: DatabaseLocation, dataSource: DataSource, timeoutMs: number): Promise<void> {
  if (location.type === 'postgres') return dataSource.query(probeStatement()).then(() => undefined);
  return new Promise((resolve, reject) => {
    const db = new Database(location.path, OPEN_READWRITE, (openError) => {
      if (openError) return reject(openError);
      db.configure('busyTimeout', timeoutMs);
      db.exec(`BEGIN IMMEDIATE; ${probeStatement()}; COMMIT;`, (error) =>
        db.close(() => (error ? reject(error) : resolve())),
      );
    });
  });
}
