import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  statfsSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';
import { DatabaseSettings, openDatabase, type SqlClient } from '@app/database';
import { serviceTables } from './support/service-modules';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postgres, type TestDatabase } from './support/databases';
import { logLinesOf, runService, startService, type ServiceProcess } from './support/service-process';
import { scaled, waitFor } from './support/wait-for';
import { startWriters } from './support/writers';
import { AUTH, JSON_CONTENT_TYPE, TEST_API_KEY, errorBody, startTestApp, type TestApp } from './support/test-app';

/*
 * Storage faults arranged for real, on a real file system and a real
 * PostgreSQL database: a write that does not reach the disk is never
 * acknowledged, and readiness says so while it lasts.
 */
const UNAVAILABLE = errorBody(503, 'database_unavailable', 'the database is unavailable; retry shortly');
const NOT_READY = errorBody(503, 'not_ready', 'not ready: the database is unavailable');
const BOUND_MS = scaled(5_000);

async function expectWritesRefused(t: TestApp) {
  const response = await t.http().post('/v1/pets').set(AUTH).send({ name: 'after', categoryId: 1 }).timeout(BOUND_MS);
  expect(response.status).toBe(503);
  expect(response.headers).toMatchObject({ 'content-type': JSON_CONTENT_TYPE, 'retry-after': '2' });
  expect(response.headers).not.toHaveProperty('location');
  expect(response.body).toEqual(UNAVAILABLE);
  const ready = await t.http().get('/health/ready').timeout(BOUND_MS);
  expect(ready.status).toBe(503);
  expect(ready.body).toEqual(NOT_READY);
}

/** Readiness must recover by itself once the fault clears, within 5 s (scaled). */
async function readyAgain(t: TestApp): Promise<void> {
  const ready = async () => (await t.http().get('/health/ready').timeout(BOUND_MS)).status === 200;
  await waitFor(ready, 'readiness 200', 5_000);
}

async function createPet(t: TestApp, name: string) {
  const response = await t.http().post('/v1/pets').set(AUTH).send({ name, categoryId: 1 }).timeout(BOUND_MS);
  expect(response.status).toBe(201);
  return response.body as { id: number };
}

describe('the SQLite file changed under the running service', () => {
  let t: TestApp;
  let path: string;
  const logged: string[] = [];
  const capture = (...args: unknown[]) => void logged.push(JSON.stringify(args));
  beforeAll(async () => {
    t = await startTestApp({
      logger: { log: capture, error: capture, warn: capture, debug: capture, verbose: capture },
    });
    path = (t.location as { path: string }).path;
  });
  afterAll(() => t?.close());

  it('is ready, and acknowledges writes, while its file is in place', async () => {
    await createPet(t, 'before');
    expect((await t.http().get('/health/ready')).status).toBe(200);
  });

  it('refuses every write and turns unready when the file is deleted, and never makes a new one', async () => {
    rmSync(path);
    await expectWritesRefused(t);
    await expectWritesRefused(t);
    expect(existsSync(path)).toBe(false);
  });

  it('logs why, and nothing of the request: no name, no SQL parameter', async () => {
    logged.length = 0;
    const response = await t.http().post('/v1/pets').set(AUTH).send({ name: 'Secret-Rex-4711', categoryId: 4711 });
    expect(response.status).toBe(503);
    const warning = logged.find((line) => line.includes('database unavailable'));
    expect(warning).toContain('is gone (ENOENT)');
    // The statement that failed: the commit of the create's batch (the pet and its event, one unit of work).
    expect(warning).toContain('"query":"COMMIT"');
    expect(logged.join('\n')).not.toContain('Secret-Rex-4711');
    expect(logged.join('\n')).not.toContain('4711');
  });
});

describe('the SQLite file deleted before the service wrote anything', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('refuses every write and turns unready, and never makes a new file', async () => {
    t = await startTestApp();
    const path = (t.location as { path: string }).path;
    rmSync(path);
    await expectWritesRefused(t);
    expect(existsSync(path)).toBe(false);
  });
});

describe('the SQLite file replaced by another one', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('refuses every write and turns unready', async () => {
    t = await startTestApp();
    const path = (t.location as { path: string }).path;
    await createPet(t, 'before');
    copyFileSync(path, `${path}.restored`);
    renameSync(`${path}.restored`, path);
    await expectWritesRefused(t);
  });
});

describe('the folder of the SQLite file removed', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('refuses every write, turns unready, and does not create the folder again', async () => {
    t = await startTestApp();
    const folder = dirname((t.location as { path: string }).path);
    await createPet(t, 'before');
    rmSync(folder, { recursive: true, force: true });
    await expectWritesRefused(t);
    expect(existsSync(folder)).toBe(false);
  });
});

describe.each([['-wal'], ['-wal and -shm']])('the SQLite %s file deleted under writes', (which) => {
  let folder: string;
  let service: ServiceProcess | undefined;
  afterEach(async () => {
    service?.child.kill('SIGKILL');
    await service?.exited;
    rmSync(folder, { recursive: true, force: true });
  });

  it('acknowledges no write once it is gone, turns unready, and a clean shutdown keeps every acknowledged pet', async () => {
    folder = mkdtempSync(join(tmpdir(), 'petstore-wal-'));
    const path = join(folder, 'petstore.sqlite');
    const env = { API_KEYS: TEST_API_KEY, DATABASE_URL: `sqlite:${path}`, NODE_ENV: 'production' };
    service = await startService(env);
    const writers = startWriters(service.baseUrl, { concurrency: 4, prefix: 'wal' });
    try {
      await waitFor(() => writers.acknowledged().length >= 100, 'a hundred acknowledged creates');
      for (const suffix of which === '-wal' ? ['-wal'] : ['-wal', '-shm']) rmSync(`${path}${suffix}`);
      // Every write sent from now on finds the files gone.
      const after = await Promise.all(
        [1, 2, 3].map((n) => post(service!.baseUrl, { name: `after-${n}`, categoryId: n })),
      );
      for (const response of after) expect(response).toEqual({ status: 503, body: UNAVAILABLE });
      const ready = await fetch(`${service.baseUrl}/health/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual(NOT_READY);
      // A warning, not an error: the service is doing what it should (the cause was logged where it was found).
      const readiness = () =>
        service!
          .output()
          .split('\n')
          .filter((line) => line.includes('"route":"/health/ready"'))
          .map((line) => JSON.parse(line) as { level: number; res: { statusCode: number } });
      await waitFor(() => readiness().some((line) => line.res.statusCode === 503), 'the refused readiness logged');
      expect(
        readiness()
          .filter((line) => line.res.statusCode === 503)
          .map((line) => line.level),
      ).toEqual([40]);
    } finally {
      await writers.stop();
    }
    const acknowledged = writers.acknowledged();
    expect(writers.outcomes.filter((outcome) => outcome.status !== 201 && outcome.status !== 503)).toEqual([]);

    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    expect(sqliteQuery(path, 'PRAGMA integrity_check')).toBe('ok');
    service = await startService(env);
    for (const pet of acknowledged) {
      const fetched = await fetch(`${service.baseUrl}/v1/pets/${pet.id}`, { headers: AUTH });
      expect({ status: fetched.status, body: await fetched.json() }).toEqual({ status: 200, body: pet });
    }
    expect((await fetch(`${service.baseUrl}/health/ready`)).status).toBe(200);
  });
});

/** One statement through the sqlite3 command line, as an operator would check the file. */
function sqliteQuery(path: string, sql: string): string {
  const script = `const s=require('sqlite3');const d=new s.Database(process.argv[1],s.OPEN_READONLY);d.all(process.argv[2],(e,r)=>{if(e)throw e;console.log(Object.values(r[0]).join());d.close()})`;
  return execFileSync(process.execPath, ['-e', script, path, sql], { cwd: __dirname }).toString().trim();
}

async function post(baseUrl: string, body: object): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}/v1/pets`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

// Root writes through any file mode: the service runs as nobody when the tests run as root, which needs a Node and a
// checkout nobody may read (not one under /root, or any folder of mode 700).
const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
const CHECKOUT = resolve(__dirname, '..');
const notReadableAsUser =
  asUser &&
  spawnSync(
    process.execPath,
    ['-e', 'require("node:fs").accessSync(process.argv[1], 4)', join(CHECKOUT, 'package.json')],
    asUser,
  ).status !== 0
    ? `nobody, as whom the service runs when the tests run as root, cannot run this Node or read ${CHECKOUT}: run the tests from a checkout others may enter`
    : undefined;

describe.skipIf(notReadableAsUser)(
  `a SQLite file this process may not write${notReadableAsUser ? ` (skipped: ${notReadableAsUser})` : ''}`,
  () => {
    let folder: string;
    afterEach(() => rmSync(folder, { recursive: true, force: true }));

    it('stops the startup, naming DATABASE_URL, instead of starting and failing every write', async () => {
      folder = mkdtempSync(join(tmpdir(), 'petstore-readonly-'));
      const path = join(folder, 'petstore.sqlite');
      const env = { API_KEYS: TEST_API_KEY, DATABASE_URL: `sqlite:${path}`, NODE_ENV: 'production' };
      const first = await startService(env);
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      chmodSync(folder, 0o777);
      chmodSync(path, 0o444);

      const { output, exited } = runService({ ...env, PORT: '0' }, asUser);
      expect(await exited).toBe(1);
      const lines = logLinesOf(output());
      expect(lines.at(-1)).toMatchObject({
        level: 60,
        context: 'Bootstrap',
        variable: 'DATABASE_URL',
        msg: `Invalid configuration: DATABASE_URL names the SQLite file ${path} that this process cannot write (SQLITE_READONLY: attempt to write a readonly database)`,
      });
      expect(output()).not.toContain('listening');
    });
  },
);

/** Whether this process may mount a small tmpfs (root, and a kernel and container that allow it). */
function tmpfsUnavailableReason(): string | undefined {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const probe = mkdtempSync(join(tmpdir(), 'petstore-tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'this machine does not allow mounting a tmpfs';
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const noTmpfs = tmpfsUnavailableReason();

describe.skipIf(noTmpfs)(`a full disk${noTmpfs ? ` (skipped: ${noTmpfs})` : ''}`, () => {
  let mountPoint: string;
  let t: TestApp;
  const filler = () => join(mountPoint, 'filler');

  beforeAll(async () => {
    mountPoint = mkdtempSync(join(tmpdir(), 'petstore-full-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint]);
    mkdirSync(join(mountPoint, 'data'));
    t = await startTestApp({ env: { DATABASE_URL: `sqlite:${join(mountPoint, 'data', 'petstore.sqlite')}` } });
  });
  afterAll(async () => {
    await t?.close();
    execFileSync('umount', [mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  it('answers writes 503 and readiness 503 while the disk is full, loses nothing acknowledged, and recovers by itself', async () => {
    const acknowledged: Array<{ id: number }> = [await createPet(t, 'before')];
    // Fill what is left of the disk.
    const fd = openSync(filler(), 'w');
    try {
      for (;;) writeSync(fd, Buffer.alloc(16 * 1024));
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    } finally {
      closeSync(fd);
    }
    let refused = 0;
    for (let n = 0; n < 2_000 && refused === 0; n++) {
      const response = await t
        .http()
        .post('/v1/pets')
        .set(AUTH)
        .send({ name: `pet-${n}-${'x'.repeat(200)}`, categoryId: n })
        .timeout(BOUND_MS);
      if (response.status === 201) acknowledged.push(response.body);
      else {
        expect(response.status).toBe(503);
        expect(response.body).toEqual(UNAVAILABLE);
        refused++;
      }
    }
    expect(refused).toBe(1);
    await expectWritesRefused(t);

    rmSync(filler());
    await readyAgain(t);
    acknowledged.push(await createPet(t, 'after'));
    for (const pet of acknowledged) {
      const fetched = await t.http().get(`/v1/pets/${pet.id}`).set(AUTH);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(pet);
    }
  });
});

describe.skipIf(noTmpfs)(
  `a disk that fills under a batch that SQLite rolls back by itself${noTmpfs ? ` (skipped: ${noTmpfs})` : ''}`,
  () => {
    let mountPoint: string;
    let db: { sql: SqlClient; close(): Promise<void> } | undefined;

    beforeAll(async () => {
      mountPoint = mkdtempSync(join(tmpdir(), 'petstore-full-batch-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mountPoint]);
      const settings = DatabaseSettings.fromEnvironment({ DATABASE_URL: `sqlite:${join(mountPoint, 'p.sqlite')}` });
      db = await openDatabase(settings, await serviceTables());
      await db.sql.write('CREATE TABLE bulk (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, body TEXT)');
      await db.sql.write('CREATE TABLE carried (name TEXT NOT NULL)');
    });
    afterAll(async () => {
      await db?.close();
      execFileSync('umount', [mountPoint]);
      rmSync(mountPoint, { recursive: true, force: true });
    });

    /**
     * One batch: plain inserts sent together with one too large for SQLite's page cache, which spills to the full disk
     * (SQLITE_FULL, and SQLite rolls the whole transaction back by itself), then transactions of two inserts each.
     * Every job is answered as what happened to it; the plain inserts that ran after the rollback committed on their
     * own, and are answered "may have been applied". Units of two rows (a pet and its event, as a unit of work commits
     * them) sent among them are never in doubt: both kept, or neither, and answered so.
     */
    it('answers each job of the batch as what happened to it: nothing answered a success missing, nothing refused stored', async () => {
      const sql = db!.sql;
      const insert = sql.dialect.statement('INSERT INTO bulk (name, body) VALUES ($1, $2)');
      const carrier = sql.dialect.statement('INSERT INTO carried (name) VALUES ($1)');
      const carrying = (name: string) => ({
        names: [`${name}-a`, `${name}-b`],
        carries: true,
        done: sql.transaction(async () => {
          await sql.write(carrier, [`${name}-a`]);
          await sql.write(carrier, [`${name}-b`]);
        }),
      });
      let inDoubtStored = 0;
      let carriedRefused = 0;
      // The free space left decides where the spill fails; a few sizes, so that the rollback lands among the statements.
      for (const [round, free] of [1_000_000, 500_000, 200_000, 100_000].entries()) {
        const filler = join(mountPoint, 'filler');
        const { bavail, bsize } = statfsSync(mountPoint);
        writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - free)));
        const plain = Array.from({ length: 40 }, (_, n) => `plain-${round}-${n}`);
        const units = Array.from({ length: 5 }, (_, n) => `unit-${round}-${n}`);
        const jobs: Array<{ names: string[]; carries?: boolean; done: Promise<unknown> }> = [
          ...plain.slice(0, 10).map((name) => ({ names: [name], done: sql.write(insert, [name, 'small']) })),
          carrying(`carrier-${round}-before`),
          { names: [`big-${round}`], done: sql.write(insert, [`big-${round}`, 'x'.repeat(3 * 1024 * 1024)]) },
          ...plain.slice(10, 20).map((name) => ({ names: [name], done: sql.write(insert, [name, 'small']) })),
          ...Array.from({ length: 10 }, (_, n) => carrying(`carrier-${round}-${n}`)),
          ...plain.slice(20).map((name) => ({ names: [name], done: sql.write(insert, [name, 'small']) })),
          ...units.map((name) => ({
            names: [`${name}-a`, `${name}-b`],
            done: sql.transaction(async () => {
              await sql.write(insert, [`${name}-a`, 'small']);
              await sql.write(insert, [`${name}-b`, 'small']);
            }),
          })),
        ];
        const outcomes = await Promise.allSettled(jobs.map((job) => job.done));
        rmSync(filler);
        const stored = new Set(
          (await sql.read<{ name: string }>('SELECT name FROM bulk UNION ALL SELECT name FROM carried')).map(
            (row) => row.name,
          ),
        );
        for (const [index, job] of jobs.entries()) {
          const outcome = outcomes[index];
          const kept = job.names.filter((name) => stored.has(name));
          if (job.carries && outcome.status === 'rejected') {
            expect((outcome.reason as Error).name, `${job.names[0]} is not in doubt`).not.toBe('UnconfirmedWrite');
            carriedRefused++;
          }
          if (outcome.status === 'fulfilled') {
            expect(kept, `${job.names} answered a success`).toEqual(job.names);
          } else if ((outcome.reason as Error).name === 'UnconfirmedWrite') {
            inDoubtStored += kept.length;
          } else {
            expect(kept, `${job.names} answered ${(outcome.reason as Error).message}`).toEqual([]);
          }
        }
      }
      // The case this is about came up: writes that committed on their own after SQLite's rollback, answered as such;
      // and units of two rows met it too.
      expect(inDoubtStored).toBeGreaterThan(0);
      expect(carriedRefused).toBeGreaterThan(0);
      // And the writing connection goes on.
      await sql.write(insert, ['after', 'small']);
      expect(await sql.read(sql.dialect.statement('SELECT name FROM bulk WHERE name = $1'), ['after'])).toEqual([
        { name: 'after' },
      ]);
    });
  },
);

describe.skipIf(postgres.skipReason)(
  `a PostgreSQL database turned read-only${postgres.skipReason ? ` (skipped: ${postgres.skipReason})` : ''}`,
  () => {
    let t: TestApp;
    let admin: Client;
    let name: string;
    beforeAll(async () => {
      t = await startTestApp({ kind: postgres });
      name = new URL((t.database as TestDatabase).url).pathname.slice(1);
      admin = new Client({ connectionString: process.env.PETSTORE_TEST_POSTGRES_URL });
      await admin.connect();
    });
    afterAll(async () => {
      await admin?.end();
      await t?.close();
    });

    /** New sessions of the throwaway database get `setting`; the service's are cut, so its pool reconnects. */
    async function setReadOnly(on: boolean) {
      await admin.query(
        `ALTER DATABASE ${name} ${on ? 'SET default_transaction_read_only = on' : 'RESET default_transaction_read_only'}`,
      );
      await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [name],
      );
    }

    it('answers writes 503 and readiness 503 while it is read-only, and recovers by itself', async () => {
      await createPet(t, 'before');
      await setReadOnly(true);
      // The first requests may meet the cut connections; then every write meets a read-only session.
      for (let n = 0; n < 5; n++) await t.http().post('/v1/pets').set(AUTH).send({ name: 'warm', categoryId: 1 });
      await expectWritesRefused(t);
      expect((await t.http().get('/v1/pets').set(AUTH)).status).toBe(200);

      await setReadOnly(false);
      await readyAgain(t);
      await createPet(t, 'after');
    });
  },
);
