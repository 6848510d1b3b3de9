import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { Agent, request, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call } from './support/http-client';
import { createWithKey, sameAnswerOr409, type RetryAnswer } from './support/retries';
import { runKeysCli, runService, startService, type ServiceProcess } from './support/service-process';
import { TEST_API_KEY } from './support/test-app';
import { waitFor } from './support/wait-for';
import { startWriters } from './support/writers';

/** The built service run as its own process: startup checks, signals, crashes. */
describe('the service process', () => {
  let folder: string;
  let env: Record<string, string>;
  const running: ServiceProcess[] = [];

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'petstore-process-'));
    env = { API_KEYS: TEST_API_KEY, DATABASE_URL: `sqlite:${join(folder, 'data', 'petstore.sqlite')}` };
  });
  afterEach(async () => {
    for (const service of running.splice(0)) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    rmSync(folder, { recursive: true, force: true });
  });

  const start = async (extra: Record<string, string> = {}) => {
    const service = await startService({ ...env, ...extra });
    running.push(service);
    return service;
  };

  describe('startup', () => {
    it.each([
      [{ PORT: 'abc' }, 'PORT must be an integer from 0 to 65535 (got "abc")'],
      [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535 (got "70000")'],
      [{ NODE_ENV: 'staging' }, 'NODE_ENV must be one of development, production, test (got "staging")'],
      [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")'],
      [{ SHUTDOWN_GRACE_MS: '-5' }, 'SHUTDOWN_GRACE_MS must be an integer from 0 to 600000 (got "-5")'],
      [{ DATABASE_URL: 'mysql://localhost/pets' }, 'DATABASE_URL has an unsupported scheme "mysql"'],
      [
        { DATABASE_URL: 'sqlite:/etc/hostname/pets.sqlite' },
        'DATABASE_URL points into a folder that cannot be created or written: /etc/hostname',
      ],
      [
        { PUBLIC_BASE_URL: 'https://api.example.com/v2' },
        'PUBLIC_BASE_URL must be an http(s) URL whose path ends in /v1',
      ],
      [{ API_KEYS: 'short' }, 'API_KEYS entry 1 must be at least 16 printable characters without spaces'],
    ])('stops at once for %j, naming the variable', async (extra, message) => {
      const { output, exited } = runService({ ...env, PORT: '0', ...extra });
      expect(await exited).toBe(1);
      // Every line JSON, the last one naming the variable, without a stack trace.
      const lines = output()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toEqual({
        level: 60,
        time: expect.any(Number),
        pid: expect.any(Number),
        hostname: expect.any(String),
        context: 'Bootstrap',
        variable: message.split(' ')[0],
        msg: expect.stringContaining(`Invalid configuration: ${message}`),
      });
    });

    it('in production without API_KEYS, serves the keys of the database, and stops naming API_KEYS when there is none', async () => {
      const production = { ...env, NODE_ENV: 'production', API_KEYS: '' };
      const refused = runService({ ...production, PORT: '0' });
      running.push({ ...refused, baseUrl: '' });
      expect(await refused.exited).toBe(1);
      const last = JSON.parse(refused.output().trim().split('\n').at(-1)!) as Record<string, unknown>;
      expect(last).toMatchObject({
        level: 60,
        context: 'Bootstrap',
        variable: 'API_KEYS',
        msg: 'Invalid configuration: API_KEYS must be set in production while the database holds no API key (or create one: npm run keys -- create --name <name>)',
      });
      const created = await runKeysCli(['create', '--name', 'first-team'], production);
      expect(created.status).toBe(0);
      const service = await start(production);
      expect((await call(service.baseUrl, 'GET', '/v1/pets', undefined, created.stdout.trim())).status).toBe(200);
      expect((await call(service.baseUrl, 'GET', '/v1/pets', undefined, TEST_API_KEY)).status).toBe(401);
    });

    it('kills a service that does not start in time, so a failed start leaves no process behind', async () => {
      const marker = join(folder, 'never-listening.sqlite');
      await expect(startService({ ...env, DATABASE_URL: `sqlite:${marker}` }, 1)).rejects.toThrow(
        /^service did not listen within 1 ms \(killed\)/,
      );
      expect(processesWith(marker)).toEqual([]);
    });

    it('creates the database folder, and generates and prints a development key when API_KEYS is unset', async () => {
      const service = await start({ API_KEYS: '', NODE_ENV: 'development' });
      const printed = [...service.output().matchAll(/generated development key ([\w-]{32})/g)].map((match) => match[1]);
      expect(printed).toHaveLength(1);
      expect((await call(service.baseUrl, 'GET', '/v1/pets', undefined, printed[0])).status).toBe(200);
      expect((await call(service.baseUrl, 'GET', '/v1/pets', undefined, TEST_API_KEY)).status).toBe(401);
    });

    it('prints the address it listens on, and documents /v1 of whatever address the client used, when PUBLIC_BASE_URL is unset (PORT=0)', async () => {
      const service = await start();
      expect(service.output()).toContain(
        `Pet Store listening on ${service.baseUrl} (public base ${service.baseUrl}/v1)`,
      );
      const document = await call(service.baseUrl, 'GET', '/v1/openapi.json');
      expect((document.body as { servers: unknown }).servers).toEqual([{ url: '/v1', description: 'This instance' }]);
    });
  });

  describe('SIGTERM', () => {
    it('finishes the requests in flight, closes the database and exits 0', async () => {
      const service = await start();
      const writes = Array.from({ length: 40 }, (_, i) =>
        call(service.baseUrl, 'POST', '/v1/pets', { name: `drain-${i}`, categoryId: i }).catch((error: Error) => error),
      );
      await Promise.race(writes);
      service.child.kill('SIGTERM');
      const results = await Promise.all(writes);
      expect(await service.exited).toBe(0);
      expect(service.output()).toContain('stopped cleanly');

      const acknowledged = results.filter(
        (result): result is Exclude<typeof result, Error> => !(result instanceof Error) && result.status === 201,
      );
      expect(acknowledged.length).toBeGreaterThan(0);
      for (const result of results) {
        // Served, or refused at the door: never a 5xx half-way.
        if (!(result instanceof Error)) expect(result.status).toBe(201);
      }
      const again = await start();
      const stored = await call(again.baseUrl, 'GET', '/v1/pets?limit=100');
      expect(stored.body).toEqual(expect.arrayContaining(acknowledged.map((result) => result.body)));
    });
  });

  describe('SIGTERM with keep-alive clients', () => {
    it('cuts no kept-alive connection in use: each ends after an answer with Connection: close', async () => {
      const service = await start();
      const agent = new Agent({ keepAlive: true, maxSockets: 8 });
      const outcomes: string[] = [];
      const client = async () => {
        // Until a new connection is refused (or reset in the instant the listener closes): nothing was read.
        for (;;) {
          const outcome = await keptAlive(agent, service.baseUrl);
          outcomes.push(outcome);
          if (/^ECONN\w+ on a new connection$/.test(outcome)) return;
        }
      };
      const clients = Array.from({ length: 8 }, client);
      await waitFor(() => outcomes.length >= 200, 'the clients to be under way');
      service.child.kill('SIGTERM');
      await Promise.all(clients);
      agent.destroy();
      expect(await service.exited).toBe(0);
      const kinds = new Set(outcomes.map((outcome) => outcome.replace(/^ECONN\w+ on a new connection$/, 'refused')));
      // Never an error on a reused connection: every request sent on one was answered.
      expect([...kinds].sort()).toEqual(['200 close', '200 keep-alive', 'refused']);
    });
  });

  describe('SIGTERM behind a load balancer', () => {
    it('turns readiness 503 at once, keeps serving with Connection: close for SHUTDOWN_DELAY_MS, then exits 0', async () => {
      const service = await start({ SHUTDOWN_DELAY_MS: '1500', SHUTDOWN_GRACE_MS: '5000' });
      expect((await raw(service.baseUrl, '/health/ready')).status).toBe(200);
      const signalled = Date.now();
      service.child.kill('SIGTERM');
      await new Promise((wait) => setTimeout(wait, 200));

      const ready = await raw(service.baseUrl, '/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.headers).toMatchObject({ 'retry-after': '2', connection: 'close' });
      expect(JSON.parse(ready.body)).toEqual({
        code: 'shutting_down',
        message: 'the service is shutting down',
        status: 503,
      });

      const served = await raw(service.baseUrl, '/v1/pets', { authorization: `Bearer ${TEST_API_KEY}` });
      expect(served.status).toBe(200);
      expect(served.headers.connection).toBe('close');
      expect(JSON.parse(served.body)).toEqual([]);

      expect(await service.exited).toBe(0);
      const took = Date.now() - signalled;
      expect(took).toBeGreaterThanOrEqual(1400); // the delay was kept; exit 0 proves the grace was too
    });
  });

  describe('SIGTERM under load', () => {
    it('serves or refuses at the door, never a 5xx, loses no acknowledged write, and exits 0', async () => {
      const service = await start({ SHUTDOWN_DELAY_MS: '300', SHUTDOWN_GRACE_MS: '8000' });
      const writers = startWriters(service.baseUrl, { concurrency: 8, prefix: 'drain' });
      await new Promise((wait) => setTimeout(wait, 700));
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
        await new Promise((wait) => setTimeout(wait, 20 + round * 40));
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
        await new Promise((wait) => setTimeout(wait, 300 + round * 200));
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

/** The pids of the processes whose environment mentions `text` (Linux). */
function processesWith(text: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** GET /v1/pets through `agent`: its status and Connection header, or the error and whether its connection was new. */
function keptAlive(agent: Agent, baseUrl: string): Promise<string> {
  return new Promise((resolvePromise) => {
    const req: ClientRequest = request(
      `${baseUrl}/v1/pets?limit=1`,
      { agent, headers: { authorization: `Bearer ${TEST_API_KEY}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolvePromise(`${res.statusCode} ${res.headers.connection}`));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolvePromise(`${error.code ?? error.message} on a ${req.reusedSocket ? 'reused' : 'new'} connection`),
    );
    req.end();
  });
}

/** A plain HTTP/1.1 GET, to see the Connection header that fetch hides. */
function raw(baseUrl: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolvePromise, reject) => {
    const req = request(`${baseUrl}${path}`, { headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
