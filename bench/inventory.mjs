#!/usr/bin/env node
/**
 * node bench/inventory.mjs: what answering the inventory (pets by status) costs at 1,000,000 pets, on SQLite and on
 * PostgreSQL (BENCH_POSTGRES_URL, or the machine's), as a count of the pets table and as the store's read model
 * (decision 0034): each statement's median time over 7 runs, the seed the store's migration makes at an upgrade, and
 * `GET /v1/store/inventory` under load. The service is the one built in dist/ (`npm run build` first).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sqlite3 from 'sqlite3';
import { load, median, removeOnInterrupt, seed, serviceTarget, start, stop } from './harness.mjs';
import { postgresDatabase, seedPostgres } from './postgres.mjs';

const ROOT = join(import.meta.dirname, '..');
const PETS = Number(process.env.BENCH_PETS ?? 1_000_000);
const RUNS = 7;
const COUNT = 'SELECT status, COUNT(*) AS n FROM pets WHERE status IS NOT NULL GROUP BY status';
const READ_MODEL = 'SELECT status, SUM(pet_count) FROM store_inventory GROUP BY status';
/** The store's migration's seed (1795847634958-create-store-inventory.ts), as an upgrade runs it. */
const SEED = [
  'DELETE FROM store_inventory_pets',
  'DELETE FROM store_inventory',
  'INSERT INTO store_inventory_pets (pet_id, status) SELECT id, status FROM pets WHERE status IS NOT NULL',
  "INSERT INTO store_inventory (status, source, pet_count) SELECT status, 'created', COUNT(*) FROM store_inventory_pets GROUP BY status",
];

/** Milliseconds `run` takes, median of RUNS after one not counted. */
async function timed(run) {
  await run();
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return median(times);
}

function sqliteClient(file) {
  const db = new sqlite3.Database(file);
  const query = (sql) => new Promise((done, fail) => db.all(sql, (error, rows) => (error ? fail(error) : done(rows))));
  return { query, end: () => new Promise((done) => db.close(done)) };
}

async function postgresClient(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return { query: async (sql) => (await client.query(sql)).rows, end: () => client.end() };
}

async function measure(name, target, db, seedPets, connect) {
  const proc = await start(target, db);
  await stop(proc);
  console.log(`${name}: seeding ${PETS.toLocaleString('en')} pets...`);
  await seedPets();
  const client = await connect();
  const row = { name };
  try {
    if (name === 'PostgreSQL') await client.query('VACUUM ANALYZE pets');
    const started = performance.now();
    for (const statement of SEED) await client.query(statement);
    row.seedMs = performance.now() - started;
    row.countMs = await timed(() => client.query(COUNT));
    row.readModelMs = await timed(() => client.query(READ_MODEL));
    row.counted = JSON.stringify(await client.query(COUNT));
  } finally {
    await client.end();
  }
  const served = await start(target, db);
  try {
    await load(served, 'inventory', 1);
    const { rps, p99 } = await load(served, 'inventory', 5);
    Object.assign(row, { rps, p99 });
  } finally {
    await stop(served);
  }
  console.log(row);
  return row;
}

const work = mkdtempSync(join(tmpdir(), 'petstore-bench-inventory-'));
removeOnInterrupt(work);
const service = serviceTarget(ROOT);
const rows = [];
try {
  const file = join(work, 'inventory.sqlite');
  rows.push(
    await measure(
      'SQLite',
      service,
      file,
      () => seed(file, PETS),
      () => Promise.resolve(sqliteClient(file)),
    ),
  );
  const database = await postgresDatabase(`petstore_bench_inventory_${process.pid}`);
  const postgres = { ...service, env: (url) => ({ ...service.env(url), DATABASE_URL: url }) };
  try {
    rows.push(
      await measure(
        'PostgreSQL',
        postgres,
        database.url,
        () => seedPostgres(database.url, PETS),
        () => postgresClient(database.url),
      ),
    );
  } finally {
    await database.drop();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(
  `\n| ${PETS.toLocaleString('en')} pets | a count of the pets table | the read model | the migration's seed | GET /v1/store/inventory |`,
);
console.log('|---|---:|---:|---:|---:|');
for (const row of rows) {
  console.log(
    `| ${row.name} | ${row.countMs.toFixed(1)} ms | ${row.readModelMs.toFixed(2)} ms | ${(row.seedMs / 1000).toFixed(1)} s | ${row.rps.toFixed(0)} req/s, p99 ${row.p99} ms |`,
  );
}
