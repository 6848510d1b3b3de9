import { recreateSqliteTable } from '@app/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The table exactly as IdempotencyRecord declares it, so that TypeORM's schema
 * diff is empty: the fingerprint is `varchar(64)` (TypeORM has no `char` on
 * SQLite). No value changes. The database's migration 1795600000000 did this
 * before idempotency had migrations of its own; on a database it changed,
 * this makes the same table again.
 */
export class IdempotencyKeysAsTheirEntity1795600000003 implements MigrationInterface {
  name = 'IdempotencyKeysAsTheirEntity1795600000003';

  async up(queryRunner: QueryRunner): Promise<void> {
    await this.fingerprintAs(queryRunner, 'varchar(64)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await this.fingerprintAs(queryRunner, 'char(64)');
  }

  private async fingerprintAs(queryRunner: QueryRunner, type: string): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') {
      await queryRunner.query(`ALTER TABLE "platform_idempotency_keys" ALTER COLUMN "fingerprint" TYPE ${type}`);
      return;
    }
    await recreateSqliteTable(
      queryRunner,
      'platform_idempotency_keys',
      `"principal" varchar(128) NOT NULL, "idempotency_key" varchar(255) NOT NULL, "fingerprint" ${type} NOT NULL, ` +
        `"status" integer NOT NULL, "location" varchar(2048), "body" text NOT NULL, "created_at" bigint NOT NULL, ` +
        `PRIMARY KEY ("principal", "idempotency_key")`,
      [`CREATE INDEX "IDX_platform_idempotency_keys_created_at" ON "platform_idempotency_keys" ("created_at")`],
    );
  }
}
