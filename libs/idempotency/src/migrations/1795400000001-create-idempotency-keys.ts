import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The recorded outcomes of requests sent with an `Idempotency-Key` (see idempotency/idempotency-store.ts). */
export class CreateIdempotencyKeys1795400000001 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1795400000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "platform_idempotency_keys" (` +
        `"principal" varchar(128) NOT NULL, "idempotency_key" varchar(255) NOT NULL, "fingerprint" char(64) NOT NULL, ` +
        `"status" integer NOT NULL, "location" varchar(2048), "body" text NOT NULL, "created_at" bigint NOT NULL, ` +
        `PRIMARY KEY ("principal", "idempotency_key"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_platform_idempotency_keys_created_at" ON "platform_idempotency_keys" ("created_at")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "platform_idempotency_keys"`);
  }
}
