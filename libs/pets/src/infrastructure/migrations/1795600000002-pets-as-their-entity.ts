import { recreateSqliteTable } from '@app/database';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * On SQLite, the status check becomes the named constraint PetRecord declares
 * (`pets_status_check`, PostgreSQL's name for it already), which TypeORM
 * reads back only when named: so its schema diff is empty. Rows, ids and the
 * id counter are kept. Nothing changes on PostgreSQL.
 */
export class PetsAsTheirEntity1795600000002 implements MigrationInterface {
  name = 'PetsAsTheirEntity1795600000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') return;
    await recreateSqliteTable(
      queryRunner,
      'pets',
      `"id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(255) NOT NULL, "category_id" bigint NOT NULL, ` +
        `"status" varchar(16), CONSTRAINT "pets_status_check" CHECK ("status" IN ('available', 'pending', 'sold'))`,
      [`CREATE INDEX "IDX_pets_status_id" ON "pets" ("status", "id")`],
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'postgres') return;
    await recreateSqliteTable(
      queryRunner,
      'pets',
      `"id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(255) NOT NULL, "category_id" bigint NOT NULL, ` +
        `"status" varchar(16) CHECK ("status" IN ('available', 'pending', 'sold'))`,
      [`CREATE INDEX "IDX_pets_status_id" ON "pets" ("status", "id")`],
    );
  }
}
