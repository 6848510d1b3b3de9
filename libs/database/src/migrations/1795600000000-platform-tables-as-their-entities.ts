import type { MigrationInterface, QueryRunner } from 'typeorm';
import { recreateSqliteTable } from '../recreate-sqlite-table';

/**
 * The write probe's table exactly as its entity declares it, so that TypeORM's
 * schema diff is empty: the key is declared NOT NULL on SQLite. No value
 * changes. (Databases that ran this under its name also had idempotency's table
 * changed by it: idempotency's own migration 1795600000003 now does that.)
 */
export class PlatformTablesAsTheirEntities1795600000000 implements MigrationInterface {
  name = 'PlatformTablesAsTheirEntities1795600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') return;
    await recreateSqliteTable(
      queryRunner,
      'platform_write_probe',
      `"id" integer PRIMARY KEY NOT NULL, "probed_at" varchar(40) NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') return;
    await recreateSqliteTable(
      queryRunner,
      'platform_write_probe',
      `"id" integer PRIMARY KEY, "probed_at" varchar(40) NOT NULL`,
    );
  }
}
