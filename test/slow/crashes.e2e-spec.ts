import { describe, expect, it } from 'vitest';
import { call } from '../support/http-client';
import { createWithKey, sameAnswerOr409, type RetryAnswer } from '../support/retries';
import { servicePerTest } from '../support/service-process';
import { TEST_API_KEY } from '../support/test-app';
import { waitFor } from '../support/wait-for';
import { startWriters } from '../support/writers';

/**
 * The built service killed (SIGKILL) or stopped (SIGTERM) under concurrent
 * writes, round after round on one database: nothing acknowledged is lost,
 * nothing is created twice.
 */
describe('the service process, stopped and killed under load', () => {
  const { start } = servicePerTest(TEST_API_KEY);

  describe('SIGTERM under load', () => {
    it('serves or refuses at the door, never a 5xx, loses no acknowledged write, and exits 0', async () => {
      const service = await start({ SHUTDOWN_DELAY_MS: '300', SHUTDOWN_GRACE_MS: '8000' });
      const writers = startWriters(service.baseUrl, { concurrency: 8, prefix: 'drain' });
      await waitFor(() => writers.acknowledged().length > 50, 'fifty acknowledged writes');
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      await writers.stop();

      const statuses = new Set(writers.outcomes.filter((outcome) => outcome.status).map((outcome) => outcome.status));
      expect([...statuses].every((status) => status === 201 || status === 503)).toBe(true);
      const acknowledged = writers.acknowledged();
      expect(acknowledged.length).toBeGreaterThan(50);

      const again = await start();
      for (const pet of acknowledged) {
        expect(await call(again.baseUrl, 'GET', `/v1/pets/${pet.id}`)).toMatchObject({ status: 200, body: pet });
      }
    });
  });

  describe('SIGKILL', () => {
    it('creates exactly once when killed in the middle of retries of one Idempotency-Key, round after round', async () => {
      for (let round = 0; round < 3; round++) {
        const key = `crash-${round}`;
        const body = { name: `Exactly-once-${round}`, categoryId: round };
        const service = await start();
        const answers: RetryAnswer[] = [];
        let killed = false;
        const retrying = Array.from({ length: 6 }, async () => {
          while (!killed) answers.push(await createWithKey(service.baseUrl, key, body));
        });
        // Killed once the first retry is answered, then later and later in the retries.
        await waitFor(() => answers.length >= [1, 4, 16][round], `answer ${[1, 4, 16][round]} of round ${round}`);
        service.child.kill('SIGKILL');
        await service.exited;
        killed = true;
        await Promise.all(retrying);

        const restarted = await start();
        let final: RetryAnswer = {};
        for (let attempt = 0; attempt < 20 && final.status !== 201; attempt++) {
          final = await createWithKey(restarted.baseUrl, key, body);
        }
        expect(final.status).toBe(201);
        answers.push(final);
        expect(sameAnswerOr409(answers)).toBe(true);
        const list = await call(restarted.baseUrl, 'GET', '/v1/pets?limit=100');
        expect((list.body as Array<{ name: string }>).filter((pet) => pet.name === body.name)).toHaveLength(1);
        restarted.child.kill('SIGTERM');
        await restarted.exited;
      }
    });

    it('loses no acknowledged pet when killed in the middle of concurrent writes, round after round', async () => {
      const acknowledged: unknown[] = [];
      for (let round = 0; round < 3; round++) {
        const service = await start();
        const writers = startWriters(service.baseUrl, { concurrency: 8, prefix: `round-${round}` });
        await waitFor(() => writers.acknowledged().length >= 20 + round * 40, `writes of round ${round}`);
        // Killed with requests in flight: no shutdown hook, no close, no flush.
        service.child.kill('SIGKILL');
        expect(await service.exited).toBe('SIGKILL');
        await writers.stop();
        const acked = writers.acknowledged();
        expect(acked.length).toBeGreaterThan(0);
        acknowledged.push(...acked);
      }

      const restarted = await start();
      const ids = new Set<number>();
      for (const pet of acknowledged as Array<{ id: number }>) {
        const fetched = await call(restarted.baseUrl, 'GET', `/v1/pets/${pet.id}`);
        expect(fetched).toMatchObject({ status: 200, body: pet });
        ids.add(pet.id);
      }
      expect(ids.size).toBe(acknowledged.length); // no id was handed out twice
      const write = await call(restarted.baseUrl, 'POST', '/v1/pets', { name: 'after', categoryId: 1 });
      expect(write.status).toBe(201);
      expect((write.body as { id: number }).id).toBeGreaterThan(Math.max(...ids));
    });
  });
});
