// Makes the upgrade fixture of one release: a SQLite dump, a PostgreSQL dump and what that release answered, in
// test/fixtures/upgrades/<version>/. test/upgrades.e2e-spec.ts opens each fixture under the current code.
//
// When a release is cut, check it out beside this one, build it, and run (sqlite3 and pg_dump on the PATH):
//   git worktree add /tmp/release-<version> <commit> && (cd /tmp/release-<version> && npm ci && npm run build)
//   PETSTORE_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres \
//     node scripts/make-upgrade-fixture.mjs --release /tmp/release-<version> --version <version> \
//     [--node <the node binary that release ran on>] [--keys] [--idempotency]
// --keys: the release has `npm run keys` (stored API keys); --idempotency: it honours Idempotency-Key.
// The keys it prints into expected.json are valid only against the fixture's own databases.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';

const { values: args } = parseArgs({
  options: {
    release: { type: 'string' },
    version: { type: 'string' },
    node: { type: 'string', default: process.execPath },
    keys: { type: 'boolean', default: false },
    idempotency: { type: 'boolean', default: false },
  },
});
if (!args.release || !args.version || !process.env.PETSTORE_TEST_POSTGRES_URL) {
  throw new Error('--release <built checkout> --version <x.y.z> and PETSTORE_TEST_POSTGRES_URL are needed');
}
const API_KEY = 'fixture-key-0123456789abcdef';
/**
 * Pets of every shape the contract allows; a release refuses some (names with control characters were refused
 * from the second release on): what it accepted is the fixture.
 */
const PETS = [
  { name: 'Rex', categoryId: 1, status: 'available' },
  { name: 'Mia', categoryId: 2, status: 'pending' },
  { name: 'Öskar 🐕', categoryId: 3, status: 'sold' },
  { name: 'No status', categoryId: -9007199254740991 },
  { name: 'Largest category', categoryId: 9007199254740991, status: 'available' },
  { name: 'N'.repeat(255), categoryId: 0, status: 'sold' },
  { name: 'Tab\there', categoryId: 7 },
  { name: ' ', categoryId: 8, status: 'pending' },
  { name: '\u202Eright-to-left', categoryId: 9 },
];
const RETRIED = [
  { key: 'fixture-retry-1', body: { name: 'Retried once', categoryId: 11, status: 'available' } },
  { key: 'fixture-retry-2', body: { name: 'Retried twice', categoryId: 12 } },
];

const freePort = () =>
  new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });

async function serve(databaseUrl, work) {
  const port = await freePort();
  const env = { PATH: process.env.PATH, NODE_ENV: 'test', API_KEYS: API_KEY, DATABASE_URL: databaseUrl };
  const child = spawn(args.node, [join(args.release, 'dist/apps/petstore/src/main.js')], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((done) => child.once('exit', done));
  try {
    const base = `http://127.0.0.1:${port}`;
    // The first release had no /health: a listed page is the sign it serves.
    const serving = () =>
      fetch(`${base}/v1/pets?limit=1`, { headers: { authorization: `Bearer ${API_KEY}` } }).then(
        (r) => r.ok,
        () => false,
      );
    for (let tries = 0; !(await serving()); tries++) {
      if (tries > 300 || child.exitCode !== null) throw new Error(`the release did not start on ${databaseUrl}`);
      await new Promise((wait) => setTimeout(wait, 50));
    }
    return await work(base, env);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

async function post(base, body, headers = {}, key = API_KEY) {
  const response = await fetch(`${base}/v1/pets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, location: response.headers.get('location'), body: await response.json() };
}

/** What the release was given and what it answered, on one database. */
async function fill(databaseUrl) {
  return serve(databaseUrl, async (base, env) => {
    const pets = [];
    for (const pet of PETS) {
      const answer = await post(base, pet);
      if (answer.status === 201) pets.push(answer.body);
    }
    const retried = [];
    if (args.idempotency) {
      for (const { key, body } of RETRIED) {
        const answer = await post(base, body, { 'idempotency-key': key });
        if (answer.status !== 201) throw new Error(`Idempotency-Key ${key}: ${answer.status}`);
        retried.push({ key, body, answer });
        pets.push(answer.body);
      }
    }
    const keys = [];
    if (args.keys) {
      const cli = (...command) =>
        execFileSync(args.node, [join(args.release, 'dist/apps/petstore/src/keys.js'), ...command], {
          env,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        }).trim();
      for (const name of ['team-active', 'team-revoked']) keys.push({ name, key: cli('create', '--name', name) });
      cli('revoke', 'team-revoked');
      keys[1].revoked = true;
      // The active key used once (the service sees a new key within API_KEY_CACHE_SECONDS): its last use is recorded.
      const use = () => fetch(`${base}/v1/pets?limit=1`, { headers: { authorization: `Bearer ${keys[0].key}` } });
      for (let tries = 0; (await use()).status !== 200; tries++) {
        if (tries > 600) throw new Error('the stored key was never accepted');
        await new Promise((wait) => setTimeout(wait, 50));
      }
    }
    return { pets, retried, keys };
  });
}

const out = resolve(import.meta.dirname, '../test/fixtures/upgrades', args.version);
mkdirSync(out, { recursive: true });
const folder = mkdtempSync(join(tmpdir(), 'petstore-fixture-'));
const admin = process.env.PETSTORE_TEST_POSTGRES_URL;
const database = `petstore_fixture_${randomBytes(4).toString('hex')}`;
const withAdmin = async (sql) => {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};
try {
  const file = join(folder, 'petstore.sqlite');
  const sqlite = await fill(`sqlite:${file}`);
  writeFileSync(join(out, 'sqlite.sql'), execFileSync('sqlite3', [file, '.dump'], { encoding: 'utf8' }));

  await withAdmin(`CREATE DATABASE ${database}`);
  const url = new URL(admin);
  url.pathname = `/${database}`;
  const postgres = await fill(url.href);
  const dump = execFileSync('pg_dump', ['--no-owner', '--no-privileges', '--inserts', url.href], { encoding: 'utf8' });
  writeFileSync(join(out, 'postgres.sql'), dump);

  if (JSON.stringify(sqlite.pets) !== JSON.stringify(postgres.pets)) {
    throw new Error('the release answered differently on SQLite and PostgreSQL');
  }
  const expected = {
    release: args.version,
    commit: execFileSync('git', ['-C', args.release, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(),
    apiKey: API_KEY,
    pets: sqlite.pets,
    retried: sqlite.retried,
    keys: { sqlite: sqlite.keys, postgres: postgres.keys },
  };
  writeFileSync(join(out, 'expected.json'), `${JSON.stringify(expected, null, 2)}\n`);
  console.log(
    `${out}: ${sqlite.pets.length} pets, ${sqlite.retried.length} retried creates, ${sqlite.keys.length} keys`,
  );
} finally {
  rmSync(folder, { recursive: true, force: true });
  await withAdmin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
}
