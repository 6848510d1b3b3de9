import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnChild } from '../support/children';
import { POSTGRES_TEST_URL, postgres, queryDatabase, type TestDatabase } from '../support/databases';
import { REDIS_TEST_URL } from '../support/redis';
import { freePort, logLinesOf, startService, type ServiceProcess } from '../support/service-process';
import { TEST_API_KEY } from '../support/test-app';
import { scaled, waitFor } from '../support/wait-for';

const HAPROXY = spawnSync('haproxy', ['-v']).status === 0;
const SKIP_REASON = !HAPROXY
  ? 'no haproxy on the PATH (apt-get install haproxy; .ci/run installs it)'
  : !POSTGRES_TEST_URL
    ? 'set PETSTORE_TEST_POSTGRES_URL to run it'
    : undefined;

/** The HAProxy configuration of docs/operations.md, as an operator would copy it. */
function documentedConfiguration(): string {
  const guide = readFileSync(resolve(__dirname, '../../docs/operations.md'), 'utf8');
  const block = /```haproxy\n([\s\S]*?)```/.exec(guide)?.[1];
  if (!block) throw new Error('docs/operations.md has no ```haproxy block');
  return block;
}

/**
 * That configuration on this machine: the frontend on `port`, the servers on
 * `servers`, the stats socket in `folder`, and no retries at all, so that a
 * request an instance failed reaches the client instead of being hidden.
 */
function configurationFor(port: number, servers: number[], folder: string): string {
  const text = documentedConfiguration();
  const replaced = text
    .replace('stats socket /run/haproxy/admin.sock', `stats socket ${join(folder, 'admin.sock')}`)
    .replace('bind :80', `bind 127.0.0.1:${port}`)
    .replace('retries 3', 'retries 0')
    .replace(/^ *server petstore-.*\n/gm, '');
  const lines = servers.map((server, n) => `    server petstore-${n + 1} 127.0.0.1:${server}\n`).join('');
  const configured = replaced.trimEnd() + '\n' + lines;
  // Every substitution found its line: the guide and this test speak of the same configuration.
  for (const expected of ['admin.sock', `bind 127.0.0.1:${port}`, 'retries 0', 'petstore-3 127.0.0.1']) {
    if (!configured.includes(expected)) throw new Error(`the guide's configuration has changed: no ${expected}`);
  }
  return configured;
}

/** HAProxy's view of each server of the backend (`UP`, `DOWN`, `UP 1/2`...), from its stats socket. */
function serverStates(socketPath: string): Promise<Record<string, string>> {
  return new Promise((resolvePromise, reject) => {
    let text = '';
    const socket = connect(socketPath, () => socket.end('show stat\n'));
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => {
      const [header, ...rows] = text.trim().split('\n');
      const columns = header.replace(/^# /, '').split(',');
      const states: Record<string, string> = {};
      for (const row of rows) {
        const cells = Object.fromEntries(row.split(',').map((cell, i) => [columns[i], cell]));
        if (cells.pxname === 'petstore' && cells.svname.startsWith('petstore-')) states[cells.svname] = cells.status;
      }
      resolvePromise(states);
    });
  });
}

interface Outcome {
  what: string;
  status?: number;
  error?: string;
}

/** One request through the balancer on a kept-alive connection: its status and body, or the error. */
function send(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status?: number; text?: string; error?: string }> {
  return new Promise((resolvePromise) => {
    const req = request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { authorization: `Bearer ${TEST_API_KEY}`, ...headers },
        timeout: scaled(10_000),
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolvePromise({ status: res.statusCode, text }));
        res.on('error', (error) => resolvePromise({ error: error.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) => resolvePromise({ error: `${(error as NodeJS.ErrnoException).code ?? error.message}` }));
    req.end(body);
  });
}

describe.skipIf(SKIP_REASON)(
  `rolling restarts behind HAProxy${SKIP_REASON ? ` (skipped: ${SKIP_REASON})` : ''}`,
  () => {
    let folder: string | undefined;
    let database: TestDatabase | undefined;
    const running = new Set<ServiceProcess>();
    const everyInstance: ServiceProcess[] = [];
    let haproxy: ReturnType<typeof spawnChild> | undefined;

    afterAll(async () => {
      for (const service of running) service.child.kill('SIGKILL');
      await Promise.all([...running].map((service) => service.exited));
      if (haproxy && haproxy.exitCode === null) {
        const exited = new Promise((done) => haproxy!.once('exit', done));
        haproxy.kill('SIGKILL');
        await exited;
      }
      await database?.drop();
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    it(
      'loses no request and no write when every instance is rolled with the defaults',
      async () => {
        folder = mkdtempSync(join(tmpdir(), 'petstore-roll-'));
        database = await postgres.create();
        const env = {
          NODE_ENV: 'production',
          API_KEYS: TEST_API_KEY,
          DATABASE_URL: database.url,
          // The load below is one key's, well over the default limit of a minute.
          RATE_LIMIT_PER_MINUTE: '10000000',
          ...(REDIS_TEST_URL
            ? { REDIS_URL: REDIS_TEST_URL, REDIS_KEY_PREFIX: `petstore-roll-${randomBytes(6).toString('hex')}:` }
            : {}),
        };
        const ports = [await freePort(), await freePort(), await freePort()];
        const start = async (port: number) => {
          const service = await startService({ ...env, PORT: String(port) });
          running.add(service);
          everyInstance.push(service);
          return service;
        };
        // One after the other: the first one migrates the database.
        const instances: ServiceProcess[] = [];
        for (const port of ports) instances.push(await start(port));

        const frontend = await freePort();
        const configuration = join(folder, 'haproxy.cfg');
        writeFileSync(configuration, configurationFor(frontend, ports, folder));
        haproxy = spawnChild('haproxy', ['-db', '-f', configuration]);
        let haproxyOutput = '';
        haproxy.stdout.on('data', (chunk: Buffer) => (haproxyOutput += chunk.toString()));
        haproxy.stderr.on('data', (chunk: Buffer) => (haproxyOutput += chunk.toString()));
        const socket = join(folder, 'admin.sock');
        const isUp = async (server: string) => {
          try {
            return (await serverStates(socket))[server] === 'UP';
          } catch {
            return false;
          }
        };
        for (const n of [1, 2, 3])
          await waitFor(() => isUp(`petstore-${n}`), `HAProxy to count petstore-${n} up`, 20_000);

        // Keep-alive clients: a keyed create, a read of it, a page of the list, again and again.
        const agent = new Agent({ keepAlive: true, maxSockets: 12 });
        const outcomes: Outcome[] = [];
        const created = new Map<string, number>();
        let stopping = false;
        const client = async (n: number) => {
          for (let i = 0; !stopping; i++) {
            const key = `roll-${n}-${i}`;
            const body = JSON.stringify({ name: key, categoryId: n });
            const made = await send(
              agent,
              frontend,
              'POST',
              '/v1/pets',
              { 'content-type': 'application/json', 'idempotency-key': key },
              body,
            );
            outcomes.push({ what: 'create', status: made.status, error: made.error });
            if (made.status !== 201) continue;
            const id = (JSON.parse(made.text!) as { id: number }).id;
            created.set(key, id);
            const read = await send(agent, frontend, 'GET', `/v1/pets/${id}`);
            outcomes.push({ what: 'get', status: read.status, error: read.error });
            const page = await send(agent, frontend, 'GET', '/v1/pets?limit=5');
            outcomes.push({ what: 'list', status: page.status, error: page.error });
          }
        };
        const clients = Array.from({ length: 12 }, (_, n) => client(n));
        const exits: Array<number | string> = [];
        try {
          await waitFor(() => outcomes.length >= 300, 'the clients to be under way', 20_000);
          for (const [n, old] of instances.entries()) {
            old.child.kill('SIGTERM');
            exits.push(await old.exited);
            running.delete(old);
            instances[n] = await start(ports[n]);
            await waitFor(() => isUp(`petstore-${n + 1}`), `HAProxy to count the new petstore-${n + 1} up`, 30_000);
          }
          const served = outcomes.length;
          await waitFor(() => outcomes.length >= served + 300, 'the new instances to serve', 20_000);
        } finally {
          stopping = true;
          await Promise.all(clients);
          agent.destroy();
        }

        // Not one answer but a 2xx, not one connection error: the balancer never sent to an instance that had gone.
        const failed = outcomes.filter((outcome) => outcome.error !== undefined || outcome.status! >= 300);
        expect(failed, haproxyOutput).toEqual([]);
        expect(exits).toEqual([0, 0, 0]);
        // Every acknowledged create is stored, once: as many rows as acknowledgements, with their ids.
        const rows = await queryDatabase(database.url, 'SELECT id, name FROM pets ORDER BY id');
        expect(rows.map((row) => [row.name, Number(row.id)])).toEqual([...created].sort((a, b) => a[1] - b[1]));
        expect(created.size).toBeGreaterThan(100);

        // The last three stop as the first three did.
        for (const service of instances) service.child.kill('SIGTERM');
        expect(await Promise.all(instances.map((service) => service.exited))).toEqual([0, 0, 0]);
        for (const service of instances) running.delete(service);
        // No instance logged an error, though each answered readiness checks with 503 while it stopped.
        for (const service of everyInstance) {
          const lines = logLinesOf(service.output());
          expect(lines.filter((line) => line.level >= 50)).toEqual([]);
          expect(lines.filter((line) => line.msg.startsWith('SIGTERM received'))).toHaveLength(1);
        }
      },
      scaled(180_000),
    );
  },
);
