import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { SqlClient } from '@app/database';
import { Client } from 'pg';
import type { Response } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnChild } from './support/children';
import { POSTGRES_TEST_URL, postgres, queryDatabase } from './support/databases';
import { TcpProxy } from './support/tcp-proxy';
import { AUTH, JSON_CONTENT_TYPE, errorBody, startTestApp, type TestApp } from './support/test-app';
import { eventsSettled } from './support/events-settled';
import { scaled, waitFor } from './support/wait-for';

const UNAVAILABLE = errorBody(503, 'database_unavailable', 'the database is unavailable; retry shortly');
const UNCONFIRMED = errorBody(
  503,
  'commit_unconfirmed',
  'the database did not confirm the write: it may have been applied; retry with the same Idempotency-Key',
);
const NOT_READY = errorBody(503, 'not_ready', 'not ready: the database is unavailable');

/** Every request is bounded: supertest gives up after this, failing the test. */
const BOUND_MS = scaled(5_000);

async function expectUnavailable(t: TestApp, { readsToo }: { readsToo: boolean }) {
  const requests = [
    t.http().post('/v1/pets').set(AUTH).send({ name: 'during', categoryId: 1 }).timeout(BOUND_MS),
    t.http().post('/v1/pets').set(AUTH).send({ name: 'during', categoryId: 2 }).timeout(BOUND_MS),
    ...(readsToo
      ? [t.http().get('/v1/pets').set(AUTH).timeout(BOUND_MS), t.http().get('/v1/pets/1').set(AUTH).timeout(BOUND_MS)]
      : []),
  ];
  const answers = await Promise.all(requests);
  for (const response of answers) {
    expect(response.status).toBe(503);
    expect(response.headers['content-type']).toBe(JSON_CONTENT_TYPE);
    expect(response.headers['retry-after']).toBe('2');
  }
  // A create is one statement in autocommit: sent on a pooled connection the server's side had just closed (before
  // the pool heard of it), its answer is lost after it left, which the service cannot tell from a write that was
  // applied; expectRecovered() then finds that none was. A read is never in doubt.
  const [first, second, ...reads] = answers;
  for (const write of [first, second]) expect([UNAVAILABLE, UNCONFIRMED]).toContainEqual(write.body);
  for (const read of reads) expect(read.body).toEqual(UNAVAILABLE);
  const ready = await t.http().get('/health/ready').timeout(BOUND_MS);
  expect(ready.status).toBe(503);
  expect(ready.body).toEqual(NOT_READY);
}

/** Retries until the service answers again: it must recover by itself. */
async function expectRecovered(t: TestApp, pets: unknown[]) {
  let list: Response | undefined;
  const served = async () => {
    list = await t.http().get('/v1/pets').set(AUTH).timeout(BOUND_MS);
    if (list.status !== 200) expect(list.status).toBe(503);
    return list.status === 200;
  };
  await waitFor(served, 'the list to be served again', 10_000);
  expect(list?.body).toEqual(pets);
  const created = await t.http().post('/v1/pets').set(AUTH).send({ name: 'after', categoryId: 2 });
  expect(created.status).toBe(201);
  // A transaction too (a keyed create's), before anything else wrote: a write that failed on the lock left nothing
  // behind on the writing connection that would refuse it.
  const keyed = await t
    .http()
    .post('/v1/pets')
    .set(AUTH)
    .set('idempotency-key', `after-${Date.now()}`)
    .send({ name: 'after, keyed', categoryId: 2 });
  expect(keyed.status).toBe(201);
  expect((await t.http().get('/health/ready')).status).toBe(200);
}

describe('SQLite write-locked by another process', () => {
  let t: TestApp;
  let holder: ChildProcess | undefined;
  beforeAll(async () => (t = await startTestApp({ env: { DATABASE_TIMEOUT_MS: String(scaled(300)) } })));
  afterAll(async () => {
    holder?.kill('SIGKILL');
    await t?.close();
  });

  it('answers writes 503 database_unavailable while the lock is held, keeps serving reads, and recovers', async () => {
    const before = await t.http().post('/v1/pets').set(AUTH).send({ name: 'before', categoryId: 1 });
    expect(before.status).toBe(201);

    holder = await holdWriteLock(t);

    await expectUnavailable(t, { readsToo: false });
    // WAL lets readers go on under a writer's lock, and they see only committed pets.
    const list = await t.http().get('/v1/pets').set(AUTH).timeout(BOUND_MS);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([before.body]);

    holder.kill('SIGKILL');
    await new Promise((exited) => holder!.on('exit', exited));
    await expectRecovered(t, [before.body]);
  });
});

/** Another process holding the write lock on the app's SQLite file, as a backup or maintenance tool may; resolves once it holds it. */
async function holdWriteLock(t: TestApp): Promise<ChildProcess> {
  const path = t.location.type === 'sqlite' ? t.location.path : '';
  const holder = spawnChild(
    process.execPath,
    [
      '-e',
      `
      const db = new (require('sqlite3').Database)(${JSON.stringify(path)});
      db.serialize(() => {
        db.run('BEGIN EXCLUSIVE', (error) => { if (error) { console.error(error.message); process.exit(1); } });
        db.run('INSERT INTO pets (name, category_id) VALUES (?, ?)', ['uncommitted', 9], (error) => {
          if (error) { console.error(error.message); process.exit(1); }
          console.log('locked');
        });
      });
      setInterval(() => {}, 1000);`,
    ],
    { cwd: resolve(__dirname, '..') },
  );
  await new Promise<void>((locked) =>
    holder.stdout!.on('data', (chunk) => String(chunk).includes('locked') && locked()),
  );
  return holder;
}

describe('SQLite: a write waiting for the lock', () => {
  let t: TestApp;
  let holder: ChildProcess | undefined;
  beforeAll(async () => (t = await startTestApp({ env: { DATABASE_TIMEOUT_MS: '4000' } })));
  afterAll(async () => {
    holder?.kill('SIGKILL');
    await t?.close();
  });

  it('does not hold up reads: single writes have a connection of their own', async () => {
    const before = await t.http().post('/v1/pets').set(AUTH).send({ name: 'before', categoryId: 1 });
    expect(before.status).toBe(201);
    // Its event heard by every subscriber first: the only write that waits below is the request's.
    await eventsSettled(t);
    holder = await holdWriteLock(t);

    let writeAnswered = false;
    const write = t
      .http()
      .post('/v1/pets')
      .set(AUTH)
      .send({ name: 'waiting', categoryId: 2 })
      .timeout(BOUND_MS)
      .then((response) => {
        writeAnswered = true;
        return response;
      });
    // The write reaches SQLite and waits there for the lock (up to DATABASE_TIMEOUT_MS).
    await waitFor(() => t.app.get(SqlClient).pendingWrites === 1, 'the write to wait for the lock');
    const reads = await Promise.all([
      t.http().get('/v1/pets').set(AUTH).timeout(BOUND_MS),
      t.http().get(`/v1/pets/${before.body.id}`).set(AUTH).timeout(BOUND_MS),
    ]);
    expect(writeAnswered).toBe(false);
    expect(reads.map((r) => [r.status, r.body])).toEqual([
      [200, [before.body]],
      [200, before.body],
    ]);

    // The lock is released: the waiting write goes through.
    holder.kill('SIGKILL');
    const written = await write;
    expect(written.status).toBe(201);
    expect(written.body).toEqual({ id: before.body.id + 1, name: 'waiting', categoryId: 2 });
  });
});

describe.skipIf(!POSTGRES_TEST_URL)(
  `PostgreSQL unreachable or failing${POSTGRES_TEST_URL ? '' : ' (skipped: set PETSTORE_TEST_POSTGRES_URL to run it)'}`,
  () => {
    let t: TestApp;
    let proxy: TcpProxy;
    let databaseName: string;
    let databaseUrl: string;
    let dropDatabase: () => Promise<void>;

    beforeAll(async () => {
      const database = await postgres.create();
      dropDatabase = database.drop;
      databaseUrl = database.url;
      const direct = new URL(database.url);
      databaseName = direct.pathname.slice(1);
      proxy = new TcpProxy(direct.hostname, Number(direct.port || 5432));
      await proxy.start();
      const viaProxy = new URL(database.url);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      t = await startTestApp({ env: { DATABASE_URL: viaProxy.href, DATABASE_TIMEOUT_MS: '1000' } });
    });
    afterAll(async () => {
      await t?.close();
      await proxy?.stop();
      await dropDatabase?.();
    });

    it('answers 503 while the server is unreachable, and recovers when it is back', async () => {
      const before = await t.http().post('/v1/pets').set(AUTH).send({ name: 'before', categoryId: 1 });
      expect(before.status).toBe(201);
      await proxy.stop();
      await expectUnavailable(t, { readsToo: true });
      await proxy.start();
      await expectRecovered(t, [before.body]);
    });

    it('answers 503, not 500, when the server kills its connections, and recovers', async () => {
      const admin = new Client({ connectionString: POSTGRES_TEST_URL });
      await admin.connect();
      try {
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [databaseName],
        );
      } finally {
        await admin.end();
      }
      const statuses = [];
      for (let i = 0; i < 12; i++) statuses.push((await t.http().get('/v1/pets').set(AUTH).timeout(BOUND_MS)).status);
      expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
      expect(statuses.at(-1)).toBe(200);
    });

    it('answers 503, not 500, to keyed creates whose connection is killed mid-transaction; their retries create once', async () => {
      // The server kills each backend found idle in a transaction: between a keyed create's statements, where
      // TypeORM releases the connection under it (QueryRunnerAlreadyReleasedError at its next statement).
      const admin = new Client({ connectionString: POSTGRES_TEST_URL });
      await admin.connect();
      let killed = 0;
      let stop = false;
      const killer = (async () => {
        while (!stop) {
          const { rowCount } = await admin.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND state = 'idle in transaction'",
            [databaseName],
          );
          killed += rowCount ?? 0;
        }
      })();
      const create = (key: string) =>
        t
          .http()
          .post('/v1/pets')
          .set(AUTH)
          .set('idempotency-key', key)
          .send({ name: key, categoryId: 7 })
          .timeout(BOUND_MS);
      const answers = new Map<string, Response>();
      try {
        const deadline = Date.now() + scaled(30_000);
        while (killed < 3 && Date.now() < deadline) {
          const keys = Array.from({ length: 8 }, () => `killed-${answers.size + Math.random()}`);
          for (const [i, answer] of (await Promise.all(keys.map(create))).entries()) answers.set(keys[i], answer);
        }
      } finally {
        stop = true;
        await killer.finally(() => admin.end());
      }
      expect(killed).toBeGreaterThanOrEqual(3);
      const refused = [...answers].filter(([, answer]) => answer.status !== 201);
      expect(refused.length).toBeGreaterThan(0);
      // Killed before its COMMIT was sent: nothing applied. Killed as its COMMIT ran: it may have been (the server
      // ends a backend only between statements, but may end it right after committing).
      for (const [, answer] of refused) {
        expect([answer.status, answer.headers['retry-after']]).toEqual([503, '2']);
        expect([UNAVAILABLE, UNCONFIRMED]).toContainEqual(answer.body);
      }
      // A retry with the same key creates once: afresh where nothing was left behind, replayed where the commit held.
      for (const [key] of refused) {
        let retry: Response | undefined;
        await waitFor(
          async () => (retry = await create(key)).status === 201,
          `a retry of ${key} to be created`,
          10_000,
        );
        answers.set(key, retry!);
      }
      const stored = await queryDatabase(
        databaseUrl,
        "SELECT id, name FROM pets WHERE name LIKE 'killed-%' ORDER BY name",
      );
      const acknowledged = [...answers].map(([key, answer]) => ({ id: answer.body.id, name: key }));
      expect(stored.map((row) => ({ id: Number(row.id), name: row.name }))).toEqual(
        acknowledged.sort((a, b) => (a.name < b.name ? -1 : 1)),
      );
    });
  },
);

describe.skipIf(!POSTGRES_TEST_URL)(
  `PostgreSQL: probe rows held by another session${POSTGRES_TEST_URL ? '' : ' (skipped: set PETSTORE_TEST_POSTGRES_URL to run it)'}`,
  () => {
    let first: TestApp | undefined;
    let second: TestApp | undefined;
    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it('keeps an instance ready while another session holds every probe row but its own, as none of its requests waits', async () => {
      first = await startTestApp({ kind: postgres, env: { DATABASE_TIMEOUT_MS: '1000' } });
      const url = first.database.url;
      const held = (await queryDatabase(url, 'SELECT id FROM database_write_probe')).map((row) => Number(row.id));
      second = await startTestApp({ kind: postgres, env: { DATABASE_URL: url, DATABASE_TIMEOUT_MS: '1000' } });
      // Another instance's probe stalled in flight, or an operator's transaction left open, holding those rows.
      const locker = new Client({ connectionString: url });
      await locker.connect();
      try {
        await locker.query('BEGIN');
        await locker.query('SELECT id FROM database_write_probe WHERE id = ANY($1) FOR UPDATE', [held]);
        for (let probe = 0; probe < 3; probe++) {
          const ready = await second.http().get('/health/ready').timeout(BOUND_MS);
          expect([ready.status, ready.body.status]).toEqual([200, 'ok']);
        }
        const created = await second.http().post('/v1/pets').set(AUTH).send({ name: 'held', categoryId: 1 });
        expect(created.status).toBe(201);
      } finally {
        await locker.query('ROLLBACK').catch(() => undefined);
        await locker.end();
      }
    });
  },
);
