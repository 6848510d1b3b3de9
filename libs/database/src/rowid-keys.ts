import type { DataSource, QueryRunner, TableColumnOptions } from 'typeorm';

/**
 * On SQLite a generated key is the table's rowid, which must be declared
 * `integer` (`INTEGER PRIMARY KEY AUTOINCREMENT`), however wide the entity
 * declares it for PostgreSQL (`@PrimaryGeneratedColumn({ type: 'bigint' })`).
 * TypeORM has no per-database column type, so a data source's entities are
 * told here, once their metadata is built.
 */
export function useRowidKeys(dataSource: DataSource): void {
  if (dataSource.options.type !== 'sqlite') return;
  for (const entity of dataSource.entityMetadatas) {
    for (const column of entity.generatedColumns) {
      if (column.generationStrategy === 'increment') column.type = 'integer';
    }
  }
}

/**
 * A new table's generated key, for a migration's `new Table({ columns: [...] })`:
 * what `@PrimaryGeneratedColumn({ type: 'bigint' })` is on each database (a
 * `bigint` from a sequence on PostgreSQL, the rowid on SQLite, AUTOINCREMENT so
 * that an id is never handed out twice).
 */
export function generatedKeyColumn(queryRunner: QueryRunner, name = 'id'): TableColumnOptions {
  return {
    name,
    type: queryRunner.connection.options.type === 'sqlite' ? 'integer' : 'bigint',
    isPrimary: true,
    isGenerated: true,
    generationStrategy: 'increment',
  };
}
