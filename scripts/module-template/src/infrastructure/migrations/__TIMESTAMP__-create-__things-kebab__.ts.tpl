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
// <sample>
// <each field>
// <string>
          { name: '__field_snake__', type: 'varchar', length: '__max__'__isNullable__ },
// </string>
// <int>
          { name: '__field_snake__', type: 'integer'__isNullable__ },
// </int>
// <int64>
          { name: '__field_snake__', type: 'bigint'__isNullable__ },
// </int64>
// <enum>
          { name: '__field_snake__', type: 'varchar', length: '__length__'__isNullable__ },
// </enum>
// </each>
// </sample>
          // The row's version: a save is guarded by the one it read (__Thing__Record's @VersionColumn).
          { name: 'version', type: 'integer', default: 1 },
        ],
// <sample>
        checks: [
// <each field>
// <enum>
          { name: 'CHK___things_snake_____field_snake__', expression: `"__field_snake__" IN (__VALUES__)` },
// </enum>
// </each>
        ],
// </sample>
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('__things_snake__');
  }
}
