import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The inventory's tables (decision 0034), seeded from the pets the catalogue has now, so that a database that had
 * pets before the store came gets an exact inventory at once; from then on the store's subscriptions keep it from
 * the pets module's events, counting each pet and change once whatever the seed counted already. The statement that
 * reads `pets` is written as pets' migrations have made the table up to this one: a migration is frozen text, run
 * on a new database in order after those.
 */
export class CreateStoreInventory1795847634958 implements MigrationInterface {
  name = 'CreateStoreInventory1795847634958';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'store_inventory',
        columns: [
          { name: 'status', type: 'varchar', length: '16', isPrimary: true },
          { name: 'source', type: 'varchar', length: '16', isPrimary: true },
          { name: 'pet_count', type: 'bigint' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'store_inventory_pets',
        columns: [
          { name: 'pet_id', type: 'bigint', isPrimary: true },
          { name: 'status', type: 'varchar', length: '16' },
        ],
      }),
    );
    await queryRunner.query(
      'INSERT INTO store_inventory_pets (pet_id, status) SELECT id, status FROM pets WHERE status IS NOT NULL',
    );
    await queryRunner.query(
      "INSERT INTO store_inventory (status, source, pet_count) SELECT status, 'created', COUNT(*) FROM store_inventory_pets " +
        'GROUP BY status',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('store_inventory_pets');
    await queryRunner.dropTable('store_inventory');
  }
}
