import { afterAll, describe, expect, it } from 'vitest';
import { POSTGRES_TEST_URL, postgres, sqlite, type TestDatabase } from '../support/databases';
import { call } from '../support/http-client';
import { startService, type ServiceProcess } from '../support/service-process';
import { createWithKey, sameAnswerOr409, type RetryAnswer } from '../support/retries';
import { TEST_API_KEY } from '../support/test-app';

/** Many stateless instances on one PostgreSQL database, as the service is meant to scale. */
describe.skipIf(!POSTGRES_TEST_URL)(
  `several instances on one PostgreSQL database${POSTGRES_TEST_URL ? '' : ' (skipped: set PETSTORE_TEST_POSTGRES_URL to run it)'}`,
  () => {
    const databases: TestDatabase[] = [];
    const services: ServiceProcess[] = [];

    afterAll(async () => {
      for (const service of services) {
        service.child.kill('SIGKILL');
        await service.exited;
      }
      for (const database of databases) await database.drop();
    });

    it('start together on an empty database and serve one catalogue: what one writes, all read', async () => {
      for (let attempt = 0; attempt < 2; attempt++) {
        const database = await postgres.create();
        databases.push(database);
        // Separate processes started at the same moment: each finds the migrations pending.
        const started = await Promise.all(
          [1, 2, 3].map(() => startService({ API_KEYS: TEST_API_KEY, DATABASE_URL: database.url, LOG_LEVEL: 'info' })),
        );
        services.push(...started);
        const created = [];
        for (const [i, service] of started.entries()) {
          const response = await call(service.baseUrl, 'POST', '/v1/pets', { name: `from-${i}`, categoryId: i });
          expect(response.status).toBe(201);
          created.push(response.body);
        }
        for (const service of started) {
          expect(await call(service.baseUrl, 'GET', '/v1/pets')).toMatchObject({ status: 200, body: created });
        }
      }
    });

    it('create exactly once under concurrent retries of one Idempotency-Key sent to two instances', async () => {
      const database = await postgres.create();
      databases.push(database);
      const pair = await Promise.all(
        [1, 2].map(() => startService({ API_KEYS: TEST_API_KEY, DATABASE_URL: database.url })),
      );
      services.push(...pair);
      for (let round = 0; round < 3; round++) {
        const key = `fleet-${round}`;
        const body = { name: `Fleet-${round}`, categoryId: round };
        const answers = await Promise.all(
          Array.from({ length: 16 }, (_, n) => createWithKey(pair[n % 2].baseUrl, key, body)),
        );
        expect(sameAnswerOr409(answers)).toBe(true);
        expect(answers.some((answer) => answer.status === 201)).toBe(true);
        // Once the first has finished, every instance replays it.
        for (const service of pair) {
          const replay = await createWithKey(service.baseUrl, key, body);
          expect(replay.status).toBe(201);
          expect(replay.text).toBe(answers.find((answer) => answer.status === 201)!.text);
        }
        const list = await call(pair[0].baseUrl, 'GET', '/v1/pets?limit=100');
        expect((list.body as Array<{ name: string }>).filter((pet) => pet.name === body.name)).toHaveLength(1);
      }
    });
  },
);

/**
 * Two services on one SQLite file (nothing stops an operator from starting a
 * second one): an Idempotency-Key still creates once, since its record is
 * written in the pet's transaction, under SQLite's one write lock, only where
 * no live record is (IdempotencyStore).
 */
describe('two instances on one SQLite file', () => {
  let database: TestDatabase | undefined;
  const services: ServiceProcess[] = [];

  afterAll(async () => {
    for (const service of services) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    await database?.drop();
  });

  it('create exactly once under 40 concurrent requests with one Idempotency-Key, alternating between them', async () => {
    database = await sqlite.create();
    const first = await startService({ API_KEYS: TEST_API_KEY, DATABASE_URL: database.url });
    services.push(first);
    const second = await startService({ API_KEYS: TEST_API_KEY, DATABASE_URL: database.url });
    services.push(second);
    const pair = [first, second];
    const created: string[] = [];
    for (let round = 0; round < 10; round++) {
      const key = `shared-file-${round}`;
      const body = { name: `Shared-${round}`, categoryId: round };
      const answers: RetryAnswer[] = await Promise.all(
        Array.from({ length: 40 }, (_, n) => createWithKey(pair[n % 2].baseUrl, key, body)),
      );
      // Each is the first one's answer, or "still being processed" (in the instance that is processing it).
      expect(answers.filter((answer) => answer.status !== 201 && answer.status !== 409)).toEqual([]);
      expect(sameAnswerOr409(answers)).toBe(true);
      const answer = answers.find((one) => one.status === 201)!.text!;
      expect(JSON.parse(answer)).toEqual({ id: expect.any(Number), ...body });
      for (const service of pair)
        expect(await createWithKey(service.baseUrl, key, body)).toEqual({ status: 201, text: answer });
      created.push(answer);
    }
    // One pet per key, and no other.
    const list = await call(second.baseUrl, 'GET', '/v1/pets?limit=100');
    expect(list.status).toBe(200);
    expect(list.body).toEqual(created.map((text) => JSON.parse(text)));
  });
});
