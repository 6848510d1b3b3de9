import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row that readiness rewrites to prove that writes reach the disk: a
 * probe that writes nothing says "ready" on a full disk, a read-only file or a
 * read-only PostgreSQL (see write-probe.ts).
 */
export class CreateWriteProbe1795400000000 implements MigrationInterface {
  name = 'CreateWriteProbe1795400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "platform_write_probe" ("id" integer PRIMARY KEY, "probed_at" varchar(40) NOT NULL)`,
    );
    await queryRunner.query(`INSERT INTO "platform_write_probe" ("id", "probed_at") VALUES (1, '')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "platform_write_probe"`);
  }
}
