import type { MigrationInterface, QueryRunner } from 'typeorm';
import { recreateSqliteTable } from '../recreate-sqlite-table';

/**
 * The platform's tables exactly as their entities declare them
 * (IdempotencyRecord, WriteProbeRecord), so that TypeORM's schema diff is
 * empty: the fingerprint is `varchar(64)` (TypeORM has no `char` on SQLite),
 * and the probe's key is declared NOT NULL. No value changes.
 */
export class PlatformTablesAsTheirEntities1795600000000 implements MigrationInterface {
  name = 'PlatformTablesAsTheirEntities1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') {
      await queryRunner.query(`ALTER TABLE "platform_idempotency_keys" ALTER COLUMN "fingerprint" TYPE varchar(64)`);
      return;
    }
    await recreateSqliteTable(
      queryRunner,
      'platform_write_probe',
      `"id" integer PRIMARY KEY NOT NULL, "probed_at" varchar(40) NOT NULL`,
    );
    await recreateSqliteTable(
      queryRunner,
      'platform_idempotency_keys',
      `"principal" varchar(128) NOT NULL, "idempotency_key" varchar(255) NOT NULL, "fingerprint" varchar(64) NOT NULL, ` +
        `"status" integer NOT NULL, "location" varchar(2048), "body" text NOT NULL, "created_at" bigint NOT NULL, ` +
        `PRIMARY KEY ("principal", "idempotency_key")`,
      [`CREATE INDEX "IDX_platform_idempotency_keys_created_at" ON "platform_idempotency_keys" ("created_at")`],
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') {
      await queryRunner.query(`ALTER TABLE "platform_idempotency_keys" ALTER COLUMN "fingerprint" TYPE char(64)`);
      return;
    }
    await recreateSqliteTable(
      queryRunner,
      'platform_write_probe',
      `"id" integer PRIMARY KEY, "probed_at" varchar(40) NOT NULL`,
    );
    await recreateSqliteTable(
      queryRunner,
      'platform_idempotency_keys',
      `"principal" varchar(128) NOT NULL, "idempotency_key" varchar(255) NOT NULL, "fingerprint" char(64) NOT NULL, ` +
        `"status" integer NOT NULL, "location" varchar(2048), "body" text NOT NULL, "created_at" bigint NOT NULL, ` +
        `PRIMARY KEY ("principal", "idempotency_key")`,
      [`CREATE INDEX "IDX_platform_idempotency_keys_created_at" ON "platform_idempotency_keys" ("created_at")`],
    );
  }
}
