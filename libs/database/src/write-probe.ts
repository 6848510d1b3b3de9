import type { SqlClient } from './sql-client';

/**
 * Whether a write reaches the database now: rewrites the probe row and
 * commits, on the path every write of the service takes (on SQLite the
 * writing connection and its group commit, with the file guard; on PostgreSQL
 * the pool, bounded by the statement timeout). A lock probe (`BEGIN
 * IMMEDIATE; ROLLBACK`) would succeed on a read-only file, a full disk or
 * failing storage, while every real write fails.
 */
export async function probeWrite(sql: SqlClient): Promise<void> {
  await sql.write(`UPDATE platform_write_probe SET probed_at = '${new Date().toISOString()}' WHERE id = 1`);
}
