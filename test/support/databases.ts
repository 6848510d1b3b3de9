import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import sqlite3 from 'sqlite3';

/** A database for one suite: its `DATABASE_URL`, and how to throw it away. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export interface DatabaseKind {
  name: 'sqlite' | 'postgres';
  /** Why the kind is skipped here, if it is. */
  skipReason?: string;
  create(): Promise<TestDatabase>;
}

export const POSTGRES_TEST_URL = process.env.PETSTORE_TEST_POSTGRES_URL;
/**
 * How the throwaway databases' names begin (`PETSTORE_TEST_POSTGRES_PREFIX`, default `petstore_test_`), for a shared
 * server whose databases must follow a naming rule; a random suffix follows. Letters, digits and `_`, at most 48.
 */
export const POSTGRES_TEST_PREFIX = postgresPrefixOf(process.env.PETSTORE_TEST_POSTGRES_PREFIX);

export function postgresPrefixOf(prefix = 'petstore_test_'): string {
  if (!/^[a-z_][a-z0-9_]{0,47}$/.test(prefix)) {
    throw new Error(
      `PETSTORE_TEST_POSTGRES_PREFIX must be lower-case letters, digits and _ (at most 48, not starting with a digit): "${prefix}"`,
    );
  }
  return prefix;
}

export const sqlite: DatabaseKind = {
  name: 'sqlite',
  async create() {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-test-'));
    return {
      url: `sqlite:${join(folder, 'petstore.sqlite')}`,
      drop: async () => rmSync(folder, { recursive: true, force: true }),
    };
  },
};

/** A fresh PostgreSQL database per suite, created through `PETSTORE_TEST_POSTGRES_URL`, its name after `prefix`. */
export function postgresKind(prefix = POSTGRES_TEST_PREFIX): DatabaseKind {
  return {
    name: 'postgres',
    skipReason: POSTGRES_TEST_URL ? undefined : 'set PETSTORE_TEST_POSTGRES_URL to run it',
    create: () => createPostgresDatabase(prefix),
  };
}

export const postgres = postgresKind();

async function createPostgresDatabase(prefix: string): Promise<TestDatabase> {
  const admin = new URL(POSTGRES_TEST_URL!);
  const name = `${prefix}${randomBytes(6).toString('hex')}`;
  await withClient(admin.href, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(admin.href);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      await withClient(admin.href, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

export const DATABASE_KINDS: readonly DatabaseKind[] = [sqlite, postgres];

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Runs `sql` straight on the database a `DATABASE_URL` names, beside the service: the rows it returns. */
export async function queryDatabase(databaseUrl: string, sql: string): Promise<Array<Record<string, unknown>>> {
  if (databaseUrl.startsWith('postgres'))
    return withClient(databaseUrl, async (client) => (await client.query(sql)).rows);
  const db = new sqlite3.Database(databaseUrl.slice('sqlite:'.length), sqlite3.OPEN_READWRITE);
  try {
    return await new Promise((resolve, reject) =>
      db.all(sql, (error, rows) => (error ? reject(error) : resolve(rows as Array<Record<string, unknown>>))),
    );
  } finally {
    await new Promise((resolve) => db.close(resolve));
  }
}

/**
 * The next row `table` makes gets the id `next`, as years of inserts (or an operator's `setval`) would have it: for a
 * test of ids past 2^53. The table's key is its generated `id` column.
 */
export async function continueIdsAt(databaseUrl: string, table: string, next: bigint): Promise<void> {
  const last = String(next - 1n);
  if (databaseUrl.startsWith('postgres')) {
    await queryDatabase(databaseUrl, `SELECT setval(pg_get_serial_sequence('${table}', 'id'), ${last})`);
  } else {
    await queryDatabase(databaseUrl, `DELETE FROM sqlite_sequence WHERE name = '${table}'`);
    await queryDatabase(databaseUrl, `INSERT INTO sqlite_sequence (name, seq) VALUES ('${table}', ${last})`);
  }
}
