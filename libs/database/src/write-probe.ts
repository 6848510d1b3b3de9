import { randomInt } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { SqlClient } from './sql-client';
import { SqlDialect } from './sql-dialect';

/** Rows of instances that have not probed for this long are removed when an instance opens the database. */
const STALE_AFTER_MS = 24 * 3_600_000;

const UPSERT =
  'INSERT INTO database_write_probe (id, probed_at) VALUES ($1, $2) ' +
  'ON CONFLICT (id) DO UPDATE SET probed_at = excluded.probed_at';

/**
 * Whether a write reaches the database now: an instance's own row of `database_write_probe`, rewritten and committed.
 * Each instance has a row of its own: with one row for all, a session holding it (another instance's probe stalled in
 * flight, an operator's open transaction) would hold up the readiness of every instance at once, while none of their
 * requests waits for it. A lock probe (`BEGIN IMMEDIATE; ROLLBACK`) would succeed on a read-only file, a full disk or
 * failing storage, while every real write fails.
 */
export class WriteProbe {
  private readonly row = randomInt(2, 2 ** 31 - 1);

  /**
   * As a process opens the database: proves that it may write there, and removes the rows of instances long gone (on
   * PostgreSQL passing over any row another session holds).
   */
  async prove(dataSource: DataSource): Promise<void> {
    const stale = new Date(Date.now() - STALE_AFTER_MS).toISOString();
    await dataSource.query(SqlDialect.of(dataSource).statement(UPSERT), this.parameters());
    await dataSource.query(
      dataSource.options.type === 'postgres'
        ? 'DELETE FROM database_write_probe WHERE id IN ' +
            '(SELECT id FROM database_write_probe WHERE probed_at < $1 FOR UPDATE SKIP LOCKED)'
        : 'DELETE FROM database_write_probe WHERE probed_at < ?1',
      [stale],
    );
  }

  /**
   * Readiness' write, on the path every write of the service takes (on SQLite the writing connection and its group
   * commit, with the file guard; on PostgreSQL the pool, bounded by the statement timeout).
   */
  async probe(sql: SqlClient): Promise<void> {
    await sql.write(sql.dialect.statement(UPSERT), this.parameters());
  }

  private parameters(): [number, string] {
    return [this.row, new Date().toISOString()];
  }
}
