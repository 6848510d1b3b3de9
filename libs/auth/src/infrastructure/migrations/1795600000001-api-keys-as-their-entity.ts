import { recreateSqliteTable } from '@app/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `auth_api_keys` exactly as ApiKeyRecord declares it, so that TypeORM's
 * schema diff is empty: the digest is `varchar(64)` (TypeORM has no `char` on
 * SQLite), and on SQLite the prefix's uniqueness is the named constraint
 * TypeORM reads. No value changes.
 */
export class ApiKeysAsTheirEntity1795600000001 implements MigrationInterface {
  name = 'ApiKeysAsTheirEntity1795600000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') {
      await queryRunner.query(`ALTER TABLE "auth_api_keys" ALTER COLUMN "key_digest" TYPE varchar(64)`);
      return;
    }
    await recreateSqliteTable(
      queryRunner,
      'auth_api_keys',
      `"name" varchar(64) PRIMARY KEY NOT NULL, "prefix" varchar(32) NOT NULL, "key_digest" varchar(64) NOT NULL, ` +
        `"created_at" bigint NOT NULL, "revoked_at" bigint, "last_used_at" bigint, ` +
        // The name TypeORM gives the unique prefix (its naming strategy), which it reads back on SQLite by name.
        `CONSTRAINT "UQ_123c8a976ea16fbdbd10bc5e002" UNIQUE ("prefix")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') {
      await queryRunner.query(`ALTER TABLE "auth_api_keys" ALTER COLUMN "key_digest" TYPE char(64)`);
      return;
    }
    await recreateSqliteTable(
      queryRunner,
      'auth_api_keys',
      `"name" varchar(64) PRIMARY KEY NOT NULL, "prefix" varchar(32) NOT NULL UNIQUE, "key_digest" char(64) NOT NULL, ` +
        `"created_at" bigint NOT NULL, "revoked_at" bigint, "last_used_at" bigint`,
    );
  }
}
