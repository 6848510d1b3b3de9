import { statSync } from 'node:fs';
import sqlite3 from 'sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, startTestApp, type TestApp } from './support/test-app';
import { waitFor } from './support/wait-for';

interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

function open(path: string): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, (error) => (error ? reject(error) : resolve(db)));
  });
}

function all<T>(db: sqlite3.Database, sql: string): Promise<T[]> {
  return new Promise((resolve, reject) => db.all(sql, (error, rows) => (error ? reject(error) : resolve(rows as T[]))));
}

/**
 * A read statement left open (not run to its end, reset or finalized) keeps
 * its read transaction, and with it the WAL, which then can neither be
 * checkpointed past it nor truncated: the file would grow for as long as the
 * service runs. A checkpoint that asks for the whole WAL must complete while
 * reads go on without a pause, whatever way the driver runs its reads
 * (today node-sqlite3's Database#all, a statement per call; kept prepared
 * statements were measured and not taken, see decision 0012).
 */
describe('WAL checkpoints under sustained reads', () => {
  let t: TestApp;
  let checkpointer: sqlite3.Database;
  let path: string;

  beforeAll(async () => {
    t = await startTestApp();
    path = t.location.type === 'sqlite' ? t.location.path : '';
    for (let n = 0; n < 60; n++) {
      await t
        .http()
        .post('/v1/pets')
        .set(AUTH)
        .send({ name: `pet-${n}`, categoryId: n, status: 'sold' });
    }
    checkpointer = await open(path);
    // Long enough for any reader that will finish to finish; a statement left open never does.
    await all(checkpointer, 'PRAGMA busy_timeout = 2000');
  });
  afterAll(async () => {
    await new Promise((resolve) => checkpointer?.close(resolve));
    await t?.close();
  });

  /** Concurrent readers of both list queries, each request right after the last, until `stop()`. */
  function sustainReads(concurrency: number) {
    let running = true;
    let answered = 0;
    const failures: number[] = [];
    const reader = async (n: number) => {
      while (running) {
        const path = n % 2 ? '/v1/pets?limit=20' : '/v1/pets?status=sold&limit=20';
        const response = await t.http().get(path).set(AUTH);
        if (response.status === 200) answered++;
        else failures.push(response.status);
      }
    };
    const readers = Array.from({ length: concurrency }, (_, n) => reader(n));
    return {
      answered: () => answered,
      async stop() {
        running = false;
        await Promise.all(readers);
        return { answered, failures };
      },
    };
  }

  it('truncates the WAL to nothing while reads go on', async () => {
    const reads = sustainReads(16);
    try {
      for (let round = 0; round < 5; round++) {
        // Something to checkpoint: a write, then reads of the snapshot it made.
        await t
          .http()
          .post('/v1/pets')
          .set(AUTH)
          .send({ name: `round-${round}`, categoryId: 1, status: 'sold' });
        const before = reads.answered();
        await waitFor(() => reads.answered() >= before + 50, 'fifty reads of the new snapshot');
        const [result] = await all<CheckpointResult>(checkpointer, 'PRAGMA wal_checkpoint(TRUNCATE)');
        expect(result).toEqual({ busy: 0, log: 0, checkpointed: 0 });
        expect(statSync(`${path}-wal`).size).toBe(0);
      }
    } finally {
      const { answered, failures } = await reads.stop();
      expect(failures).toEqual([]);
      expect(answered).toBeGreaterThan(250);
    }
  });

  it('would not, with a statement left open on an old snapshot (the control)', async () => {
    const holder = await open(path);
    const statement = holder.prepare('SELECT id FROM pets ORDER BY id');
    try {
      // Statement#get steps once and leaves the statement, and its read transaction, open.
      await new Promise((resolve, reject) => statement.get((error, row) => (error ? reject(error) : resolve(row))));
      await t.http().post('/v1/pets').set(AUTH).send({ name: 'after-the-snapshot', categoryId: 1 });
      const [blocked] = await all<CheckpointResult>(checkpointer, 'PRAGMA wal_checkpoint(TRUNCATE)');
      expect(blocked.busy).toBe(1);
      expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
    } finally {
      await new Promise((resolve) => statement.finalize(resolve));
      await new Promise((resolve) => holder.close(resolve));
    }
    const [result] = await all<CheckpointResult>(checkpointer, 'PRAGMA wal_checkpoint(TRUNCATE)');
    expect(result).toEqual({ busy: 0, log: 0, checkpointed: 0 });
  });
});
