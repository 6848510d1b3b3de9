import type { QueryRunner } from 'typeorm';

/**
 * SQLite cannot change a column, a constraint or a declared type in place: a
 * migration that must makes the table again as `definition` says (the columns
 * in the same order, and its constraints), copies every row, and makes its
 * indexes again, in the migration's transaction. An AUTOINCREMENT counter is
 * kept, so that no id is ever handed out twice. This is what TypeORM's own
 * schema builder does, with the counter kept.
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
    await runner.query(`UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?`, [counter[0].seq, table]);
  }
}
