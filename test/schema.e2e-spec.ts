import { DatabaseSettings, openDatabase, type SqlClient } from '@app/database';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceTables } from './support/service-modules';
import { DATABASE_KINDS } from './support/databases';
import { startTestApp, type TestApp } from './support/test-app';

/** The first migration that made the tables exactly what their entities declare. */
const ENTITIES_ARE_THE_SCHEMA = 1795600000000;

/** The views of the database, by name. */
async function viewsOf(dataSource: DataSource): Promise<string[]> {
  const rows: Array<{ name: string }> = await dataSource.query(
    dataSource.options.type === 'postgres'
      ? "SELECT table_name AS name FROM information_schema.views WHERE table_schema = 'public' ORDER BY table_name"
      : "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name",
  );
  return rows.map((row) => row.name);
}

/**
 * One schema per table: the TypeORM entities are the tables' model, and the
 * migrations make exactly what they describe. TypeORM's own schema diff (what
 * `synchronize` would change) on a freshly migrated database is empty, on
 * every database kind; and every table the migrations make has an entity.
 */
for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `migrations and entities, on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let t: TestApp;
      beforeAll(async () => (t = await startTestApp({ kind })));
      afterAll(() => t?.close());

      it('agree: the schema diff of a freshly migrated database is empty', async () => {
        const dataSource = t.app.get(DataSource);
        const diff = await dataSource.driver.createSchemaBuilder().log();
        expect(diff.upQueries.map((query) => query.query)).toEqual([]);
      });

      it('give every table an entity', async () => {
        const dataSource = t.app.get(DataSource);
        const runner = dataSource.createQueryRunner();
        try {
          // PostgreSQL lists its catalogues' tables too, under their schema's name; ours are in `public`.
          const tables = (await runner.getTables())
            .map((table) => table.name.replace(/^public\./, ''))
            .filter((table) => !table.includes('.'));
          const modelled = dataSource.entityMetadatas.map((entity) => entity.tableName);
          const views = await viewsOf(dataSource);
          const ours = tables.filter(
            (table) => table !== 'migrations' && !table.startsWith('sqlite_') && !views.includes(table),
          );
          expect([...modelled].sort()).toEqual([...ours].sort());
          // The names the release before reads, kept on PostgreSQL while a fleet rolls (decision 0028).
          expect(views).toEqual(kind.name === 'postgres' ? ['platform_idempotency_keys', 'platform_write_probe'] : []);
        } finally {
          await runner.release();
        }
      });

      it.runIf(kind.name === 'postgres')(
        "keep the tables a renaming migration moved open to the release before, under their old names: 2.0.0's statements read and write them",
        async () => {
          const dataSource = t.app.get(DataSource);
          const now = Date.now();
          // IdempotencyStore's and the write probe's statements as release 2.0.0 sends them.
          const save =
            'INSERT INTO platform_idempotency_keys (principal, idempotency_key, fingerprint, status, location, body, created_at) ' +
            'VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (principal, idempotency_key) DO UPDATE SET ' +
            'fingerprint = excluded.fingerprint, status = excluded.status, location = excluded.location, body = excluded.body, created_at = excluded.created_at ' +
            'WHERE platform_idempotency_keys.created_at < $8';
          await dataSource.query(save, ['old', 'k-1', 'f'.repeat(64), 201, '/v1/pets/1', '{"id":1}', now, now]);
          await dataSource.query(save, ['old', 'k-1', 'e'.repeat(64), 201, '/v1/pets/2', '{"id":2}', now, now]);
          expect(
            await dataSource.query(
              'SELECT fingerprint, status, location, body FROM platform_idempotency_keys WHERE principal = $1 AND idempotency_key = $2 AND created_at >= $3',
              ['old', 'k-1', now],
            ),
          ).toEqual([{ fingerprint: 'f'.repeat(64), status: 201, location: '/v1/pets/1', body: '{"id":1}' }]);
          expect(
            await dataSource.query('SELECT principal, idempotency_key FROM idempotency_keys WHERE principal = $1', [
              'old',
            ]),
          ).toEqual([{ principal: 'old', idempotency_key: 'k-1' }]);
          await dataSource.query('DELETE FROM platform_idempotency_keys WHERE created_at < $1', [now + 1]);
          expect(await dataSource.query('SELECT 1 FROM idempotency_keys WHERE principal = $1', ['old'])).toEqual([]);

          // 2.0.0's probe rewrites row 1, which its instances keep fresh (a stale one goes when an instance opens).
          const probedAt = new Date(now).toISOString();
          await dataSource.query(
            `INSERT INTO database_write_probe (id, probed_at) VALUES (1, '') ON CONFLICT DO NOTHING`,
          );
          await dataSource.query(`UPDATE platform_write_probe SET probed_at = '${probedAt}' WHERE id = 1`);
          expect(await dataSource.query('SELECT probed_at FROM database_write_probe WHERE id = 1')).toEqual([
            { probed_at: probedAt },
          ]);
        },
      );
    },
  );
}

for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `a database made before the entities were the schema, on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      /** A database made by the migrations before ENTITIES_ARE_THE_SCHEMA, filled by `fill`, then opened as the service does. */
      async function migratedFrom(fill: (old: DataSource) => Promise<void>, check: (sql: SqlClient) => Promise<void>) {
        const database = await kind.create();
        try {
          const settings = DatabaseSettings.fromEnvironment({ DATABASE_URL: database.url });
          const location: DataSourceOptions =
            settings.location.type === 'sqlite'
              ? { type: 'sqlite', database: settings.location.path }
              : { type: 'postgres', url: settings.location.url };
          const earlier = (await serviceTables()).migrations.filter(
            (migration) => Number(/\d{13}$/.exec(migration.name)?.[0]) < ENTITIES_ARE_THE_SCHEMA,
          );
          const old = await new DataSource({ ...location, migrations: earlier }).initialize();
          await old.runMigrations({ transaction: 'each' });
          await fill(old);
          await old.destroy();
          const { sql, close } = await openDatabase(settings, await serviceTables());
          try {
            await check(sql);
          } finally {
            await close();
          }
        } finally {
          await database.drop();
        }
      }

      it('keeps the id counter of a table whose rows were all deleted', async () => {
        await migratedFrom(
          async (old) => {
            await old.query(`INSERT INTO pets (name, category_id) VALUES ('Ada', 7)`);
            await old.query(`INSERT INTO pets (name, category_id) VALUES ('Brie', 7)`);
            await old.query(`DELETE FROM pets`);
          },
          async (sql) => {
            await sql.write(`INSERT INTO pets (name, category_id) VALUES ('Cleo', 7)`);
            const [{ id }] = await sql.read<{ id: number | string }>(`SELECT id FROM pets WHERE name = 'Cleo'`);
            expect(Number(id)).toBe(3);
          },
        );
      });

      it('keeps every row and never hands out an id twice once migrated', async () => {
        await migratedFrom(
          async (old) => {
            for (const name of ['Ada', 'Brie', 'Cleo']) {
              await old.query(`INSERT INTO pets (name, category_id, status) VALUES ('${name}', 7, 'sold')`);
            }
            // The newest pet removed: its id must still never come back.
            await old.query(`DELETE FROM pets WHERE name = 'Cleo'`);
            await old.query(
              `INSERT INTO auth_api_keys (name, prefix, key_digest, created_at, revoked_at) VALUES ('ci', 'pk_ci', '${'a'.repeat(64)}', 1, 2)`,
            );
            await old.query(
              `INSERT INTO platform_idempotency_keys (principal, idempotency_key, fingerprint, status, location, body, created_at) ` +
                `VALUES ('ci', 'k-1', '${'b'.repeat(64)}', 201, '/v1/pets/1', '{"id":1}', 3)`,
            );
          },
          async (sql) => {
            const pets = await sql.read('SELECT id, name, category_id AS "categoryId", status FROM pets ORDER BY id');
            expect(pets.map((pet) => ({ ...pet, id: Number(pet.id), categoryId: Number(pet.categoryId) }))).toEqual([
              { id: 1, name: 'Ada', categoryId: 7, status: 'sold' },
              { id: 2, name: 'Brie', categoryId: 7, status: 'sold' },
            ]);
            await sql.write(`INSERT INTO pets (name, category_id) VALUES ('Dot', 7)`);
            const [{ id }] = await sql.read<{ id: number | string }>(`SELECT id FROM pets WHERE name = 'Dot'`);
            expect(Number(id)).toBe(4);
            const keys = await sql.read('SELECT name, prefix, key_digest, revoked_at, last_used_at FROM auth_api_keys');
            expect(keys.map((key) => ({ ...key, revoked_at: Number(key.revoked_at) }))).toEqual([
              { name: 'ci', prefix: 'pk_ci', key_digest: 'a'.repeat(64), revoked_at: 2, last_used_at: null },
            ]);
            const records = await sql.read(
              'SELECT principal, fingerprint, status, location, body FROM idempotency_keys',
            );
            expect(records).toEqual([
              { principal: 'ci', fingerprint: 'b'.repeat(64), status: 201, location: '/v1/pets/1', body: '{"id":1}' },
            ]);
            await expect(
              sql.write(`INSERT INTO pets (name, category_id, status) VALUES ('Eve', 7, 'lost')`),
            ).rejects.toThrow(/CHECK constraint failed|violates check constraint "pets_status_check"/);
          },
        );
      });
    },
  );
}
