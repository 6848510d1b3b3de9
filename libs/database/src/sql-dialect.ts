import type { DataSource } from 'typeorm';
import type { WriteResult } from './write-result';

/**
 * SQL written once, in PostgreSQL's spelling, for whichever database the
 * DataSource speaks: repositories send fixed statements through TypeORM's
 * connection rather than rebuilding them with the query builder on every
 * request (docs/decisions/0005-sql-on-the-hot-path.md).
 */
export class SqlDialect {
  private constructor(private readonly postgres: boolean) {}

  static of(dataSource: DataSource): SqlDialect {
    return new SqlDialect(dataSource.options.type === 'postgres');
  }

  /**
   * `text` with its `$1, $2, …` placeholders as this database numbers them
   * (`?1, ?2, …` on SQLite, which binds them by number just the same).
   */
  statement(text: string): string {
    return this.postgres ? text : text.replace(/\$(\d+)/g, '?$1');
  }

  /**
   * An `INSERT` whose result tells the new row's id (read it with
   * {@link insertedId}), as decimal text: exact over the whole int64 range,
   * which a JavaScript number (node-sqlite3's `lastID`) is not past 2^53. On
   * SQLite the writing connection runs a statement with `RETURNING` to its end
   * before it answers (see guarded-sqlite3.ts), so the row is committed first
   * (decision 0009's concern, and its change).
   */
  insertReturningId(text: string): string {
    return `${this.statement(text)} RETURNING CAST(id AS TEXT) AS id`;
  }

  /** The id of the row an {@link insertReturningId} statement created. */
  insertedId(result: WriteResult): bigint {
    return BigInt(result.rows[0].id as string);
  }
}
