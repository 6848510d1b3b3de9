import { renamePrincipals } from '@app/idempotency';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { digestOf } from '../../application/api-key-material';
import { authConfig } from '../../config/auth.settings';

/**
 * Up to release 2.0.0 a key of `API_KEYS` was known by the first 12 hex digits
 * of its SHA-256, and its Idempotency-Keys were recorded under them; since, by
 * its name. This moves those records to the name, once, for the keys of
 * `API_KEYS` when the release that runs it first starts, so that a client's
 * retry across the upgrade gets its answer rather than a second pet. The old
 * label is only a query parameter here, never logged or stored again.
 */
export class IdempotencyRecordsByKeyName1795700000002 implements MigrationInterface {
  name = 'IdempotencyRecordsByKeyName1795700000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    // The keys of API_KEYS as the starting service reads them (Nest's `auth` namespace, from the same environment).
    const keys = authConfig().apiKeys;
    await renamePrincipals(
      queryRunner,
      keys.map(({ name, key }) => ({ from: digestOf(key).toString('hex', 0, 6), to: name })),
    );
  }

  /** The records stay under the names: a release before reads none of them (they expire in IDEMPOTENCY_TTL_HOURS). */
  async down(): Promise<void> {}
}
