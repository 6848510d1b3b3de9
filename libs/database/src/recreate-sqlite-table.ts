import type { QueryRunner } from 'typeorm';

/**
 * SQLite cannot change a column, a constraint or a declared type in place: a
 * migration that must makes the table again as `definition` says (the same
 * columns, and its constraints), copies every row, and makes its indexes
 * again, in the migration's transaction. An AUTOINCREMENT counter is kept,
 * even for a table whose rows were all deleted, so that no id is ever handed
 * out twice. This is what TypeORM's own schema builder does, with the counter
 * kept.
 */
export async function recreateSqliteTable(
  runner: QueryRunner,
  table: string,
  definition: string,
  indexes: readonly string[] = [],
): Promise<void> {
  const hasCounters = await runner.query(
    `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'`,
  );
  const counter: Array<{ seq: number }> = hasCounters.length
    ? await runner.query(`SELECT seq FROM sqlite_sequence WHERE name = ?`, [table])
    : [];
  const columns = (await runner.query(`SELECT name FROM pragma_table_info(?)`, [table]))
    .map(({ name }: { name: string }) => `"${name}"`)
    .join(', ');
  await runner.query(`CREATE TABLE "temporary_${table}" (${definition})`);
  await runner.query(`INSERT INTO "temporary_${table}" (${columns}) SELECT ${columns} FROM "${table}"`);
  await runner.query(`DROP TABLE "${table}"`);
  await runner.query(`ALTER TABLE "temporary_${table}" RENAME TO "${table}"`);
  for (const index of indexes) await runner.query(index);
  if (counter.length > 0) {
    // The copy's own counter (the largest id copied), if it has one, or none at all when no row was copied.
    const [copied] = await runner.query(`SELECT seq FROM sqlite_sequence WHERE name = ?`, [table]);
    await runner.query(`DELETE FROM sqlite_sequence WHERE name = ?`, [table]);
    await runner.query(`INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)`, [
      table,
      Math.max(counter[0].seq, copied?.seq ?? 0),
    ]);
  }
}
