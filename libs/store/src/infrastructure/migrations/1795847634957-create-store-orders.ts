import { generatedKeyColumn } from '@app/database';
import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The `store_orders` table as OrderRecord declares it, the same on both databases. No foreign key to `pets`: the
 * modules keep their tables apart, and the store asks the pets module whether a pet exists (docs/extending.md).
 */
export class CreateStoreOrders1795847634957 implements MigrationInterface {
  name = 'CreateStoreOrders1795847634957';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'store_orders',
        columns: [
          generatedKeyColumn(queryRunner),
          { name: 'pet_id', type: 'bigint' },
          { name: 'quantity', type: 'integer' },
          { name: 'ship_date', type: 'bigint', isNullable: true },
          { name: 'status', type: 'varchar', length: '16' },
        ],
        checks: [
          {
            name: 'CHK_store_orders_status',
            expression: `"status" IN ('placed', 'approved', 'delivered', 'cancelled')`,
          },
          { name: 'CHK_store_orders_quantity', expression: `"quantity" BETWEEN 1 AND 100` },
        ],
      }),
    );
    // The list filtered by status, `WHERE status = ? AND id > ? ORDER BY id LIMIT ?`, without a sort.
    await queryRunner.createIndex(
      'store_orders',
      new TableIndex({ name: 'IDX_store_orders_status_id', columnNames: ['status', 'id'] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('store_orders');
  }
}
