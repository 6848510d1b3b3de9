import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Module } from '@nestjs/common';
import { DatabaseModule, DatabaseSettings, openDatabase } from '@app/database';
import { Client } from 'pg';
import sqlite3 from 'sqlite3';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { serviceTables } from './support/service-modules';
import { DATABASE_KINDS, queryDatabase, type DatabaseKind, type TestDatabase } from './support/databases';
import { call, listAllPets } from './support/http-client';
import { servicePerTest } from './support/service-process';
import { errorBody, RELEASE } from './support/test-app';

/**
 * Every released schema opens under the current code. Each release left a
 * fixture (test/fixtures/upgrades/<version>/, made by scripts/make-upgrade-fixture.mjs from
 * that release's own build): a SQLite dump, a PostgreSQL dump, and what the
 * release answered. Each is loaded into a real database, the built service
 * is started on it (on PostgreSQL two instances at once, as a fleet upgrades)
 * and must answer as the contract says with everything the release stored.
 */
const FIXTURES = resolve(__dirname, 'fixtures/upgrades');
const RELEASES = readdirSync(FIXTURES)
  .filter((name) => /^\d+\.\d+\.\d+$/.test(name))
  .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
const FIXTURE_KEY = 'fixture-key-0123456789abcdef';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}
interface Expected {
  release: string;
  commit: string;
  apiKey: string;
  pets: Pet[];
  retried: Array<{ key: string; body: object; answer: { status: number; location: string; body: Pet } }>;
  keys: Record<'sqlite' | 'postgres', Array<{ name: string; key: string; revoked?: boolean }>>;
}

const expectedOf = (release: string): Expected =>
  JSON.parse(readFileSync(join(FIXTURES, release, 'expected.json'), 'utf8')) as Expected;

/**
 * A new database of `kind` holding the fixture of `release`, exactly as that
 * release left it, but for the time its Idempotency-Key records were made:
 * now, as for a client retrying across an upgrade. Left as they were, they
 * would expire IDEMPOTENCY_TTL_HOURS after the fixture was made, and the suite
 * with them.
 */
async function databaseOf(kind: DatabaseKind, release: string): Promise<TestDatabase> {
  const database = await kind.create();
  const recorded = readFileSync(join(FIXTURES, release, `${kind.name}.sql`), 'utf8');
  // pg_dump empties the search path: PostgreSQL's table is named with its schema.
  const table = kind.name === 'postgres' ? 'public.platform_idempotency_keys' : 'platform_idempotency_keys';
  const dump = recorded.includes('platform_idempotency_keys')
    ? `${recorded}\n;UPDATE ${table} SET created_at = ${Date.now()};\n`
    : recorded;
  if (kind.name === 'sqlite') {
    const db = new sqlite3.Database(database.url.slice('sqlite:'.length));
    await new Promise<void>((done, fail) => db.exec(dump, (error) => (error ? fail(error) : done())));
    await new Promise((done) => db.close(done));
  } else {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      // pg_dump's plain format is SQL but for psql's `\restrict` guard lines, which only psql reads.
      await client.query(dump.replace(/^\\.*$/gm, ''));
    } finally {
      await client.end();
    }
  }
  return database;
}

/** Every migration the current code knows, by name. */
const currentMigrations = async () => (await serviceTables()).migrations.map((migration) => migration.name);

for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `upgrades from every release, on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      const service = servicePerTest(FIXTURE_KEY);

      it.each(RELEASES)('%s: every pet, key and retried create is there, and the API answers', async (release) => {
        const expected = expectedOf(release);
        const database = await databaseOf(kind, release);
        try {
          const env = { API_KEYS: expected.apiKey, DATABASE_URL: database.url };
          // A fleet upgrades by starting new instances at once: on PostgreSQL two race to migrate.
          const [first, ...others] = await Promise.all(
            Array.from({ length: kind.name === 'postgres' ? 2 : 1 }, () => service.start(env)),
          );

          // Each migration ran exactly once, whichever instance ran it.
          const migrations = await queryDatabase(database.url, 'SELECT name FROM migrations ORDER BY id');
          expect(migrations.map((row) => row.name).sort()).toEqual((await currentMigrations()).sort());

          for (const instance of [first, ...others]) {
            // Small pages: the cursor walks across every pet.
            expect(await listAllPets<Pet>(instance.baseUrl, expected.apiKey, 3)).toEqual(expected.pets);
          }
          for (const pet of expected.pets) {
            const fetched = await call(first.baseUrl, 'GET', `/v1/pets/${pet.id}`, undefined, expected.apiKey);
            expect(fetched.status).toBe(200);
            expect(fetched.body).toEqual(pet);
            expect(fetched.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
          }
          for (const { key, revoked } of expected.keys[kind.name]) {
            const answer = await call(first.baseUrl, 'GET', '/v1/pets?limit=1', undefined, key);
            if (revoked) {
              expect(answer.status).toBe(401);
              expect(answer.body).toEqual(errorBody(401, 'invalid_api_key', 'the API key is not valid'));
            } else {
              expect(answer.status).toBe(200);
              expect(answer.body).toEqual(expected.pets.slice(0, 1));
              // A key stored before scopes grants every one (the migration gave it `*`): a write of a module that
              // came after it passes the guard, and is answered on its merits.
              const order = await call(first.baseUrl, 'POST', '/v1/store/orders', { petId: 999999 }, key);
              expect(order.status).toBe(422);
              expect(order.body).toEqual(errorBody(422, 'unknown_pet', 'petId 999999 names no pet'));
            }
          }
          for (const { key, body, answer } of expected.retried) {
            const response = await fetch(`${first.baseUrl}/v1/pets`, {
              method: 'POST',
              headers: {
                authorization: `Bearer ${expected.apiKey}`,
                'content-type': 'application/json',
                'idempotency-key': key,
              },
              body: JSON.stringify(body),
            });
            expect(response.status).toBe(answer.status);
            expect(response.headers.get('idempotent-replayed')).toBe('true');
            expect(response.headers.get('location')).toBe(answer.location);
            expect(await response.json()).toEqual(answer.body);
          }
          // Ids go on from where the release left them.
          const created = await call(
            first.baseUrl,
            'POST',
            '/v1/pets',
            { name: 'Upgraded', categoryId: 1 },
            FIXTURE_KEY,
          );
          const id = Math.max(...expected.pets.map((pet) => pet.id)) + 1;
          expect(created.status).toBe(201);
          expect(created.headers.get('location')).toBe(`/v1/pets/${id}`);
          expect(created.body).toEqual({ id, name: 'Upgraded', categoryId: 1 });
          const ready = await call(first.baseUrl, 'GET', '/health/ready');
          const up = { status: 'up', responseTime: expect.any(Number) };
          expect(ready.status).toBe(200);
          expect(ready.body).toEqual({
            status: 'ok',
            info: { database: up },
            error: {},
            details: { database: up },
            version: RELEASE,
          });
        } finally {
          await database.drop();
        }
      });
    },
  );
}

/** A migration that changes the schema and the rows, then fails: as a bad release's would, halfway. */
class FailsHalfway9999999999999 implements MigrationInterface {
  name = 'FailsHalfway9999999999999';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "half_done" ("id" integer PRIMARY KEY)`);
    await queryRunner.query(`UPDATE pets SET name = 'overwritten'`);
    await queryRunner.query(`CREATE INDEX "IDX_half_done" ON pets ("category_id")`);
    throw new Error('made to fail halfway');
  }
  async down(): Promise<void> {}
}
@Module({ imports: [DatabaseModule.forFeature({ migrations: [FailsHalfway9999999999999] })] })
class FailingModule {}

/** Everything a database holds that a migration could change: its tables, columns, indexes, constraints and rows. */
async function contentsOf(url: string): Promise<unknown> {
  if (url.startsWith('sqlite:')) {
    const schema = await queryDatabase(url, `SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name`);
    const rows: Record<string, unknown> = {};
    for (const { name } of schema.filter((entry) => entry.type === 'table')) {
      rows[name as string] = await queryDatabase(url, `SELECT * FROM "${name as string}" ORDER BY rowid`);
    }
    return { schema, rows };
  }
  const columns = await queryDatabase(
    url,
    `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
     WHERE table_schema = 'public' ORDER BY table_name, column_name`,
  );
  const indexes = await queryDatabase(
    url,
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`,
  );
  const constraints = await queryDatabase(
    url,
    `SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
     WHERE connamespace = 'public'::regnamespace ORDER BY conname`,
  );
  const rows: Record<string, unknown> = {};
  for (const table of new Set(columns.map((column) => column.table_name as string))) {
    rows[table] = await queryDatabase(url, `SELECT * FROM "${table}" ORDER BY 1`);
  }
  return { columns, indexes, constraints, rows };
}

for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `a migration that fails halfway, on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      it(`leaves a ${RELEASES[0]} database as it was, every earlier migration of the upgrade undone`, async () => {
        const database = await databaseOf(kind, RELEASES[0]);
        try {
          const before = await contentsOf(database.url);
          const settings = DatabaseSettings.fromEnvironment({ DATABASE_URL: database.url });
          await expect(openDatabase(settings, await serviceTables(FailingModule))).rejects.toThrow(
            'made to fail halfway',
          );
          expect(await contentsOf(database.url)).toEqual(before);

          // The release after it still upgrades the database as if nothing had happened.
          const { sql, close } = await openDatabase(settings, await serviceTables());
          try {
            const pets = await sql.read<{ id: number | string }>('SELECT id FROM pets ORDER BY id');
            expect(pets.map((pet) => Number(pet.id))).toEqual(expectedOf(RELEASES[0]).pets.map((pet) => pet.id));
          } finally {
            await close();
          }
        } finally {
          await database.drop();
        }
      });
    },
  );
}
