import { renameTable, renameTableBack } from '@app/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

const CREATED_AT_INDEX = {
  from: 'IDX_platform_idempotency_keys_created_at',
  to: 'IDX_idempotency_keys_created_at',
  columns: '"created_at"',
};

/** The table named for the library that owns it (decision 0028). */
export class IdempotencyKeysNamedForTheirLibrary1795700000001 implements MigrationInterface {
  name = 'IdempotencyKeysNamedForTheirLibrary1795700000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await renameTable(queryRunner, 'platform_idempotency_keys', 'idempotency_keys', [CREATED_AT_INDEX]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await renameTableBack(queryRunner, 'platform_idempotency_keys', 'idempotency_keys', [CREATED_AT_INDEX]);
  }
}
