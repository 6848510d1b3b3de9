import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The API keys managed with `npm run keys`: the key's SHA-256, never the key.
 * Times are milliseconds since the epoch, the same on both databases.
 */
export class CreateApiKeys1795500000000 implements MigrationInterface {
  name = 'CreateApiKeys1795500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "auth_api_keys" (` +
        `"name" varchar(64) PRIMARY KEY NOT NULL, "prefix" varchar(32) NOT NULL UNIQUE, "key_digest" char(64) NOT NULL, ` +
        `"created_at" bigint NOT NULL, "revoked_at" bigint, "last_used_at" bigint)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "auth_api_keys"`);
  }
}
