import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `auth_api_keys.scopes`: what each stored key grants. Every key there is gets `*`, every scope, so that each one
 * does after the upgrade what it did before; a key made since without `--scopes` gets it too.
 */
export class ApiKeyScopes1796000000000 implements MigrationInterface {
  name = 'ApiKeyScopes1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'auth_api_keys',
      new TableColumn({ name: 'scopes', type: 'varchar', length: '1000', default: "'*'" }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('auth_api_keys', 'scopes');
  }
}
