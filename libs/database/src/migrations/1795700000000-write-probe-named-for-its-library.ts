import type { MigrationInterface, QueryRunner } from 'typeorm';
import { renameTable, renameTableBack } from '../rename-table';

/** The write probe's table named for the library that owns it (decision 0028). */
export class WriteProbeNamedForItsLibrary1795700000000 implements MigrationInterface {
  name = 'WriteProbeNamedForItsLibrary1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await renameTable(queryRunner, 'platform_write_probe', 'database_write_probe');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await renameTableBack(queryRunner, 'platform_write_probe', 'database_write_probe');
  }
}
