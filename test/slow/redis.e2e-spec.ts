import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../support/http-client';
import { REDIS_SERVER, REDIS_SKIP_REASON, REDIS_TEST_URL, ownRedis, type OwnRedis } from '../support/redis';
import { freePort, startService, type ServiceProcess } from '../support/service-process';
import { TEST_API_KEY } from '../support/test-app';
import { scaled } from '../support/wait-for';

const WRONG_KEY = 'wrong-key-0123456789abcdef';

async function stopAll(services: ServiceProcess[]): Promise<void> {
  for (const service of services.splice(0)) {
    service.child.kill('SIGKILL');
    await service.exited;
  }
}

/** Three instances on one database, as a fleet behind a round-robin balancer. */
async function fleetOf(env: Record<string, string>, folder: string): Promise<ServiceProcess[]> {
  const fleet: ServiceProcess[] = [];
  // One after the other: the first one migrates the database.
  for (let n = 0; n < 3; n++) {
    fleet.push(
      await startService({ API_KEYS: TEST_API_KEY, DATABASE_URL: `sqlite:${join(folder, 'fleet.sqlite')}`, ...env }),
    );
  }
  return fleet;
}

/** `count` requests dealt round-robin over `fleet`, one at a time: their statuses in order. */
async function roundRobin(fleet: ServiceProcess[], count: number, key = TEST_API_KEY): Promise<number[]> {
  const statuses: number[] = [];
  for (let n = 0; n < count; n++) {
    statuses.push((await call(fleet[n % fleet.length].baseUrl, 'GET', '/v1/pets', undefined, key)).status);
  }
  return statuses;
}

/** Rate-limit checks of `service` that could not reach Redis and let the request through. */
async function storageFailures(service: ServiceProcess): Promise<number> {
  const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
  return Number(/^petstore_rate_limit_storage_failures_total (\d+)$/m.exec(metrics)?.[1]);
}

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

describe.skipIf(REDIS_SKIP_REASON)(
  `one rate limit for a fleet, counted in Redis${REDIS_SKIP_REASON ? ` (skipped: ${REDIS_SKIP_REASON})` : ''}`,
  () => {
    const services: ServiceProcess[] = [];
    let folder: string;
    /** A key space of this run's own on the shared server. */
    const redisEnv = () => ({
      REDIS_URL: REDIS_TEST_URL!,
      REDIS_KEY_PREFIX: `petstore-test-${randomBytes(6).toString('hex')}:`,
    });

    beforeAll(() => {
      folder = mkdtempSync(join(tmpdir(), 'petstore-fleet-'));
    });
    afterAll(async () => {
      await stopAll(services);
      rmSync(folder, { recursive: true, force: true });
    });

    it('three instances without Redis each let a key through its whole limit (the reason for Redis)', async () => {
      const fleet = await fleetOf({ RATE_LIMIT_PER_MINUTE: '10' }, join(folder));
      services.push(...fleet);
      expect(tally(await roundRobin(fleet, 45))).toEqual({ 200: 30, 429: 15 });
      await stopAll(services);
    });

    it('three instances with REDIS_URL enforce one limit together', async () => {
      const fleet = await fleetOf({ RATE_LIMIT_PER_MINUTE: '10', ...redisEnv() }, folder);
      services.push(...fleet);
      const statuses = await roundRobin(fleet, 45);
      expect(statuses).toEqual([...Array(10).fill(200), ...Array(35).fill(429)]);
      const refused = await fetch(`${fleet[1].baseUrl}/v1/pets`, {
        headers: { authorization: `Bearer ${TEST_API_KEY}` },
      });
      const retryAfter = refused.headers.get('retry-after');
      expect(retryAfter).toMatch(/^\d+$/);
      expect(refused.headers.get('ratelimit-limit')).toBe('10');
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      expect(await refused.json()).toEqual({
        code: 'rate_limited',
        message: `rate limit of 10 requests per minute exceeded; retry in ${retryAfter} s`,
        status: 429,
      });
      await stopAll(services);
    });

    it('count failed authentications from one address across the fleet, and still serve valid keys', async () => {
      const fleet = await fleetOf({ RATE_LIMIT_PER_MINUTE: '0', AUTH_FAILURES_PER_MINUTE: '4', ...redisEnv() }, folder);
      services.push(...fleet);
      expect(await roundRobin(fleet, 12, WRONG_KEY)).toEqual([...Array(4).fill(401), ...Array(8).fill(429)]);
      expect(await roundRobin(fleet, 3)).toEqual([200, 200, 200]);
      await stopAll(services);
    });

    it('answer exactly the limit of concurrent failures 401 across the fleet: the shared count is atomic', async () => {
      const fleet = await fleetOf(
        { RATE_LIMIT_PER_MINUTE: '0', AUTH_FAILURES_PER_MINUTE: '60', ...redisEnv() },
        folder,
      );
      services.push(...fleet);
      const statuses = await Promise.all(
        Array.from({ length: 400 }, async (_, n) => {
          const response = await fetch(`${fleet[n % 3].baseUrl}/v1/pets`, {
            headers: { authorization: `Bearer ${WRONG_KEY}` },
          });
          await response.arrayBuffer();
          return response.status;
        }),
      );
      // A check Redis did not answer within 250 ms (a loaded machine) fails open, as documented, and is counted; its
      // count was sent all the same, and Redis may have made it one of the 60. So the 401s are the 60 counted
      // atomically, and at most one more for each check that failed open: never more, which a count that is not
      // atomic (two checks reading 59) would give.
      const failedOpen = (await Promise.all(fleet.map(storageFailures))).reduce((sum, n) => sum + n, 0);
      expect(failedOpen).toBeLessThan(40);
      const { 401: unauthorized, 429: limited, ...others } = tally(statuses);
      expect({ others, total: unauthorized + limited }).toEqual({ others: {}, total: 400 });
      expect(unauthorized).toBeGreaterThanOrEqual(60);
      expect(unauthorized).toBeLessThanOrEqual(60 + failedOpen);
      await stopAll(services);
    });
  },
);

describe.skipIf(!REDIS_SERVER)(
  `rate limits when Redis goes away and comes back${REDIS_SERVER ? '' : ' (skipped: redis-server is not on the PATH)'}`,
  () => {
    let redis: OwnRedis;
    let service: ServiceProcess;
    let folder: string;

    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), 'petstore-redis-down-'));
      redis = await ownRedis(await freePort());
      service = await startService({
        API_KEYS: TEST_API_KEY,
        DATABASE_URL: `sqlite:${join(folder, 'petstore.sqlite')}`,
        REDIS_URL: redis.url,
        RATE_LIMIT_PER_MINUTE: '5',
        LOG_LEVEL: 'info',
      });
    });
    afterAll(async () => {
      service?.child.kill('SIGKILL');
      await service?.exited;
      await redis?.remove();
      rmSync(folder, { recursive: true, force: true });
    });

    const statuses = (count: number) => roundRobin([service], count);
    const lines = (message: string) =>
      service
        .output()
        .split('\n')
        .filter((line) => line.includes(message));
    const failuresCounted = async () => String(await storageFailures(service));

    it('limits while Redis answers', async () => {
      expect(await statuses(7)).toEqual([200, 200, 200, 200, 200, 429, 429]);
      expect(await failuresCounted()).toBe('0');
    });

    it('serves every request while Redis is down, logs it once and counts each unlimited request', async () => {
      await redis.stop();
      expect(await statuses(10)).toEqual(Array(10).fill(200));
      expect((await fetch(`${service.baseUrl}/health/ready`)).status).toBe(200);
      expect(await failuresCounted()).toBe('10');
      const warnings = lines('rate-limit storage (Redis) unreachable').map((line) => JSON.parse(line));
      expect(warnings).toEqual([
        expect.objectContaining({
          level: 40,
          context: 'RateLimit',
          msg: 'rate-limit storage (Redis) unreachable: requests are served without rate limits until it answers again',
        }),
      ]);
    });

    it('limits again by itself once Redis is back', async () => {
      await redis.start();
      const deadline = Date.now() + scaled(10_000);
      // The new server starts empty: the key gets a fresh budget of 5, then 429.
      let seen: number[] = [];
      while (!seen.includes(429)) {
        if (Date.now() > deadline) throw new Error(`no 429 within 10 s of Redis returning: ${seen.join(',')}`);
        seen = [...seen, ...(await statuses(1))];
      }
      expect(tally(seen)[429]).toBe(1);
      expect(lines('rate-limit storage (Redis) answers again')).toHaveLength(1);
      expect(lines('rate-limit storage (Redis) unreachable')).toHaveLength(1);
    });
  },
);
