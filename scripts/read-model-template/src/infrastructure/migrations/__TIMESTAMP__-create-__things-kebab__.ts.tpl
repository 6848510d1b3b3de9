import { generatedKeyColumn } from '@app/database';
import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The `__things_snake__` table as __Thing__Record declares it, through TypeORM's
 * migration API: the same on both databases. A migration is never edited
 * once released: a change is a new migration (`queryRunner.addColumn(...)`).
 */
export class Create__Things____TIMESTAMP__ implements MigrationInterface {
  name = 'Create__Things____TIMESTAMP__';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: '__things_snake__',
        columns: [
          generatedKeyColumn(queryRunner),
          { name: 'key', type: 'varchar', length: '200', isUnique: true },
          { name: 'count', type: 'bigint' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('__things_snake__');
  }
}
