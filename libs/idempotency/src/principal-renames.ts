import type { QueryRunner } from 'typeorm';

/** A caller's name until a release, and from it. */
export interface PrincipalRename {
  readonly from: string;
  readonly to: string;
}

/**
 * For a migration of a library that renames its callers (auth's 1795700000002): moves each caller's recorded answers
 * to its new name, in the migration's transaction, so that a client's retry across the upgrade gets its answer rather
 * than a second resource. Where one key has a record under both names, the one under the new name is the newer and
 * stays. Idempotency's table is reached only through this library (decision 0028).
 */
export async function renamePrincipals(runner: QueryRunner, renames: readonly PrincipalRename[]): Promise<void> {
  const postgres = runner.connection.options.type === 'postgres';
  const [first, second] = postgres ? ['$1', '$2'] : ['?1', '?2'];
  for (const { from, to } of renames) {
    await runner.query(
      `DELETE FROM idempotency_keys WHERE principal = ${first} AND idempotency_key IN ` +
        `(SELECT idempotency_key FROM idempotency_keys WHERE principal = ${second})`,
      [from, to],
    );
    await runner.query(`UPDATE idempotency_keys SET principal = ${second} WHERE principal = ${first}`, [from, to]);
  }
}
