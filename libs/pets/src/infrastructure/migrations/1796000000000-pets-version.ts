import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each pet's row gets a version (PetRecord's `@VersionColumn`), 1 for the pets there are: a save is guarded by the
 * version it read, so that of two writers who read one pet exactly one changes it. The same statement on both
 * databases, which add the column without rewriting the table.
 */
export class PetsVersion1796000000000 implements MigrationInterface {
  name = 'PetsVersion1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "pets" ADD COLUMN "version" integer NOT NULL DEFAULT 1');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "pets" DROP COLUMN "version"');
  }
}
