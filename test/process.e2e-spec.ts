import { readFileSync, readdirSync } from 'node:fs';
import { Agent, request, type ClientRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call } from './support/http-client';
import { freePort, logLinesOf, runService, servicePerTest, startService } from './support/service-process';
import { TEST_API_KEY } from './support/test-app';
import { waitFor } from './support/wait-for';

/** The built service run as its own process: startup checks, signals, crashes. */
describe('the service process', () => {
  const { start, env, folder } = servicePerTest(TEST_API_KEY);

  describe('startup', () => {
    // Every refusal is tested in process (app-config.spec.ts); these show the one JSON line and exit status a
    // process gives for a bad value, and for a folder only the process's own permissions can refuse.
    it.each([
      [{ PORT: 'abc' }, 'PORT must be an integer from 0 to 65535 (got "abc")'],
      [
        { DATABASE_URL: 'sqlite:/etc/hostname/pets.sqlite' },
        'DATABASE_URL points into a folder that cannot be created or written: /etc/hostname',
      ],
      // Not the maintenance database PostgreSQL would pick for a URL without one: stopped before any connection.
      [
        { DATABASE_URL: 'postgres://postgres:secret@127.0.0.1:5432' },
        'DATABASE_URL must name the database: postgres://user@host:port/database',
      ],
      // A module's own setting (the auth module's), checked before anything starts too; the entry never echoed.
      [
        { API_KEYS: `ci:${TEST_API_KEY},short:secret` },
        'API_KEYS entry 2 must be a key of at least 16 letters, digits and - . _ ~ + / (= only at its end), or name:key',
      ],
    ])('stops at once for %j, naming the variable', async (extra, message) => {
      const { output, exited } = runService({ ...env(), PORT: '0', ...extra });
      expect(await exited).toBe(1);
      // Every line JSON, the last one naming the variable, without a stack trace.
      const lines = logLinesOf(output());
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

    it('kills a service that does not start in time, so a failed start leaves no process behind', async () => {
      const marker = join(folder(), 'never-listening.sqlite');
      await expect(startService({ ...env(), DATABASE_URL: `sqlite:${marker}` }, 1)).rejects.toThrow(
        /^service did not listen within 1 ms \(killed\)/,
      );
      expect(processesWith(marker)).toEqual([]);
    });

    it('creates the database folder, prints the address it listens on and a generated development key when API_KEYS is unset, and documents /v1 of whatever address the client used (PORT=0, no PUBLIC_BASE_URL)', async () => {
      const service = await start({ API_KEYS: '', NODE_ENV: 'development' });
      expect(service.output()).toContain(
        `Pet Store listening on ${service.baseUrl} (public base ${service.baseUrl}/v1)`,
      );
      const printed = [...service.output().matchAll(/generated development key ([\w-]{32})/g)].map((match) => match[1]);
      expect(printed).toHaveLength(1);
      expect((await call(service.baseUrl, 'GET', '/v1/pets', undefined, printed[0])).status).toBe(200);
      expect((await call(service.baseUrl, 'GET', '/v1/pets', undefined, TEST_API_KEY)).status).toBe(401);
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
        // Served, or refused at the door (a new connection refused, or reset in the instant the listener closes):
        // never a 5xx, never an answer cut half-way (undici's "other side closed", a body that ends early).
        if (result instanceof Error) expect(['ECONNREFUSED', 'ECONNRESET']).toContain(causeCode(result));
        else expect(result.status).toBe(201);
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
      await waitFor(() => service.output().includes('SIGTERM received: draining'), 'the service to take the signal');

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

    it('waits 5 s by default in production, and logs the shutdown once, at info, never its refused readiness checks', async () => {
      const service = await start({ NODE_ENV: 'production' });
      const signalled = Date.now();
      service.child.kill('SIGTERM');
      await waitFor(() => service.output().includes('SIGTERM received: draining'), 'the service to take the signal');
      for (let check = 0; check < 3; check++) expect((await raw(service.baseUrl, '/health/ready')).status).toBe(503);
      expect(await service.exited).toBe(0);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(4900);
      const lines = logLinesOf(service.output());
      // An alert on warnings or errors does not fire on a deploy.
      expect(lines.filter((line) => line.level >= 40)).toEqual([]);
      expect(lines.filter((line) => /shut|drain|stop|503/i.test(line.msg))).toEqual([
        expect.objectContaining({
          level: 30,
          msg: 'SIGTERM received: draining (readiness now 503; closing in 5000 ms, grace 10000 ms)',
        }),
        expect.objectContaining({ level: 30, msg: 'stopped cleanly' }),
      ]);
    });

    it('keeps draining on a second SIGTERM or SIGINT, and exits at once, 1, on a third', async () => {
      const service = await start({ SHUTDOWN_DELAY_MS: '1500', SHUTDOWN_GRACE_MS: '5000' });
      const signalled = Date.now();
      service.child.kill('SIGTERM');
      await waitFor(() => service.output().includes('SIGTERM received: draining'), 'the service to take the signal');
      service.child.kill('SIGINT');
      await waitFor(() => service.output().includes('SIGINT received again'), 'the second signal');
      const served = await raw(service.baseUrl, '/v1/pets', { authorization: `Bearer ${TEST_API_KEY}` });
      expect([served.status, served.headers.connection]).toEqual([200, 'close']);
      expect(await service.exited).toBe(0);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(1400);
      expect(logLinesOf(service.output()).filter((line) => line.level >= 40)).toEqual([
        expect.objectContaining({
          level: 40,
          msg: 'SIGINT received again: still draining; a third stop signal exits at once',
        }),
      ]);
      expect(service.output()).toContain('stopped cleanly');

      const impatient = await start({ SHUTDOWN_DELAY_MS: '4000', SHUTDOWN_GRACE_MS: '8000' });
      for (const [count, line] of [
        [1, 'SIGTERM received: draining'],
        [2, 'SIGTERM received again'],
      ] as const) {
        impatient.child.kill('SIGTERM');
        await waitFor(() => impatient.output().includes(line), `signal ${count}`);
      }
      impatient.child.kill('SIGTERM');
      expect(await impatient.exited).toBe(1);
      expect(logLinesOf(impatient.output()).at(-1)).toMatchObject({
        level: 50,
        msg: 'SIGTERM received a third time: exiting without finishing the drain',
      });
    });

    it('ignores SIGHUP and SIGUSR2, saying so, and serves on', async () => {
      const service = await start();
      for (const signal of ['SIGHUP', 'SIGUSR2'] as const) {
        service.child.kill(signal);
        await waitFor(() => service.output().includes(`${signal} ignored`), `${signal} to be taken`);
      }
      expect((await raw(service.baseUrl, '/health/ready')).status).toBe(200);
      expect((await call(service.baseUrl, 'GET', '/v1/pets')).status).toBe(200);
      expect(logLinesOf(service.output()).filter((line) => line.level >= 40)).toEqual([
        expect.objectContaining({ level: 40, msg: 'SIGHUP ignored: send SIGTERM to stop the service' }),
        expect.objectContaining({ level: 40, msg: 'SIGUSR2 ignored: send SIGTERM to stop the service' }),
      ]);
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    });

    it('opens no inspector on SIGUSR1: nothing listens on the inspector port, and it serves on', async () => {
      // The port Node's inspector would open on SIGUSR1, moved to a free one so that the probe tells this process's.
      const inspectorPort = await freePort();
      const service = await start({ NODE_ENV: 'production', NODE_OPTIONS: `--inspect-port=${inspectorPort}` });
      service.child.kill('SIGUSR1');
      await waitFor(() => service.output().includes('SIGUSR1 ignored'), 'SIGUSR1 to be taken');
      const probe = await new Promise<string>((resolvePromise) => {
        const socket = connect(inspectorPort, '127.0.0.1', () => {
          socket.destroy();
          resolvePromise('connected');
        });
        socket.on('error', (error: NodeJS.ErrnoException) => resolvePromise(error.code ?? error.message));
      });
      expect(probe).toBe('ECONNREFUSED');
      expect(service.output()).not.toContain('Debugger listening');
      expect((await call(service.baseUrl, 'GET', '/v1/pets')).status).toBe(200);
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    });

    it('stops at once on SIGINT (Ctrl-C) in production, unless SHUTDOWN_DELAY_MS asks otherwise', async () => {
      const service = await start({ NODE_ENV: 'production' });
      service.child.kill('SIGINT');
      expect(await service.exited).toBe(0);
      expect(service.output()).toContain(
        'SIGINT received: draining (readiness now 503; closing in 0 ms, grace 10000 ms)',
      );
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

/** The code of the system error under a failed fetch (its `cause`): `ECONNREFUSED`, `UND_ERR_SOCKET`, ... */
function causeCode(error: Error): string | undefined {
  return (error.cause as { code?: string } | undefined)?.code;
}
