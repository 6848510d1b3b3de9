import type { QueryRunner } from 'typeorm';

/** An index that follows its table to a new name. */
export interface RenamedIndex {
  readonly from: string;
  readonly to: string;
  /** Its columns, as in CREATE INDEX (SQLite makes the index again: it cannot rename one). */
  readonly columns: string;
}

/**
 * Renames a table in a migration, its primary key and `indexes` following it. On PostgreSQL the old name stays, as a
 * view of the new table, which PostgreSQL lets the release before read and write (upserts and row locks included):
 * instances of both releases serve side by side while a fleet rolls, and a rollback needs no restore (decision 0028).
 * SQLite serves one instance, and cannot upsert through a view: there, going back to the release before means
 * restoring the backup, or renaming the table back, as the CHANGELOG says.
 */
export async function renameTable(
  runner: QueryRunner,
  from: string,
  to: string,
  indexes: readonly RenamedIndex[] = [],
): Promise<void> {
  await runner.query(`ALTER TABLE "${from}" RENAME TO "${to}"`);
  if (runner.connection.options.type === 'postgres') {
    await runner.query(`ALTER TABLE "${to}" RENAME CONSTRAINT "${from}_pkey" TO "${to}_pkey"`);
    for (const index of indexes) await runner.query(`ALTER INDEX "${index.from}" RENAME TO "${index.to}"`);
    await runner.query(`CREATE VIEW "${from}" AS SELECT * FROM "${to}"`);
    return;
  }
  for (const index of indexes) {
    await runner.query(`DROP INDEX "${index.from}"`);
    await runner.query(`CREATE INDEX "${index.to}" ON "${to}" (${index.columns})`);
  }
}

/** What {@link renameTable} did, undone. */
export async function renameTableBack(
  runner: QueryRunner,
  from: string,
  to: string,
  indexes: readonly RenamedIndex[] = [],
): Promise<void> {
  const back = indexes.map((index) => ({ from: index.to, to: index.from, columns: index.columns }));
  if (runner.connection.options.type === 'postgres') await runner.query(`DROP VIEW "${from}"`);
  await runner.query(`ALTER TABLE "${to}" RENAME TO "${from}"`);
  if (runner.connection.options.type === 'postgres') {
    await runner.query(`ALTER TABLE "${from}" RENAME CONSTRAINT "${to}_pkey" TO "${from}_pkey"`);
    for (const index of back) await runner.query(`ALTER INDEX "${index.from}" RENAME TO "${index.to}"`);
    return;
  }
  for (const index of back) {
    await runner.query(`DROP INDEX "${index.from}"`);
    await runner.query(`CREATE INDEX "${index.to}" ON "${from}" (${index.columns})`);
  }
}
