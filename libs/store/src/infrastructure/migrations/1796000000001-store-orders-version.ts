import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each order's row gets a version (OrderRecord's `@VersionColumn`), 1 for the orders there are: a save is guarded by
 * the version it read, so that of two writers who read one order exactly one moves it. The same statement on both
 * databases, which add the column without rewriting the table.
 */
export class StoreOrdersVersion1796000000001 implements MigrationInterface {
  name = 'StoreOrdersVersion1796000000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "store_orders" ADD COLUMN "version" integer NOT NULL DEFAULT 1');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "store_orders" DROP COLUMN "version"');
  }
}
