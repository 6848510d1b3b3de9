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
}
