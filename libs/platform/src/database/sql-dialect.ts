import type { DataSource } from 'typeorm';

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
   * {@link insertedId}): `RETURNING id` on PostgreSQL. Never on SQLite:
   * node-sqlite3's `run()` calls back after the first step of a `RETURNING`
   * statement, and the implicit transaction commits only when the statement is
   * finalized later, so the caller would acknowledge a row not yet durable (a
   * SIGKILL in between lost acknowledged rows in test/slow/crashes.e2e-spec.ts).
   * There TypeORM reports the row id of a plain `INSERT`, after its commit.
   */
  insertReturningId(text: string): string {
    return this.postgres ? `${text} RETURNING id` : this.statement(text);
  }

  /** The id of the row an {@link insertReturningId} statement created, as either driver reports it. */
  insertedId(result: unknown): number {
    const id = Array.isArray(result) ? (result[0] as { id: unknown }).id : result;
    return Number(id);
  }
}
