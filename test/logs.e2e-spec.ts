import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heapSnapshotOnSignal, heldObjects } from './support/heap-snapshot';
import {
  freePort,
  logLinesOf,
  runService,
  startService,
  waitUntilLive,
  type ServiceProcess,
} from './support/service-process';
import { OTHER_API_KEY, TEST_API_KEY, digestsOf } from './support/test-app';
import { waitFor } from './support/wait-for';

const WRONG_KEY = 'wrong-but-secret-looking-key-123456';
const BASIC = Buffer.from(`admin:${TEST_API_KEY}`).toString('base64');

/** What the built service writes on stdout, as an operator's log shipper reads it. */
describe('logs', () => {
  let folder: string;
  let service: ServiceProcess;
  let lines: Array<Record<string, any>>;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'petstore-logs-'));
    service = await startService({
      API_KEYS: `team-a:${TEST_API_KEY},${OTHER_API_KEY}`,
      DATABASE_URL: `sqlite:${join(folder, 'petstore.sqlite')}`,
      LOG_LEVEL: 'info',
    });
    const send = (path: string, headers: Record<string, string>, init: RequestInit = {}) =>
      fetch(`${service.baseUrl}${path}`, { ...init, headers });
    await send(
      '/v1/pets',
      { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json', 'x-request-id': 'create-1' },
      {
        method: 'POST',
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      },
    );
    await send('/v1/pets?limit=1', { authorization: `Bearer ${OTHER_API_KEY}`, 'x-request-id': 'list-1' });
    await send('/v1/pets/1', { authorization: `bearer ${TEST_API_KEY}`, 'x-request-id': 'get-1' });
    await send('/v1/pets', { authorization: `Bearer ${WRONG_KEY}`, 'x-request-id': 'wrong-1' });
    await send(`/v1/pets?api_key=${WRONG_KEY}x`, { authorization: `Basic ${BASIC}`, 'x-request-id': 'basic-1' });
    await send('/v1/pets', { 'x-request-id': 'has spaces, so replaced' });
    // Under load too: a few hundred concurrent requests with good, wrong and malformed credentials.
    await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        send(i % 3 === 0 ? '/v1/pets' : `/v1/pets/${i}`, {
          authorization: [`Bearer ${TEST_API_KEY}`, `Bearer ${WRONG_KEY}`, `Basic ${BASIC}`, `bearer ${OTHER_API_KEY}`][
            i % 4
          ],
        }),
      ),
    );
    service.child.kill('SIGTERM');
    await service.exited;
    lines = service
      .output()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('are JSON, one object per line', () => {
    expect(lines.length).toBeGreaterThan(6);
    for (const line of lines)
      expect(line).toMatchObject({ level: expect.any(Number), time: expect.any(Number), msg: expect.any(String) });
  });

  it("have one line per request with id, method, route, status, latency and the key's name or place", () => {
    const requests = lines.filter((line) => line.msg === 'request completed');
    expect(requests.map((line) => line.req.id).slice(0, 5)).toEqual([
      'create-1',
      'list-1',
      'get-1',
      'wrong-1',
      'basic-1',
    ]);
    const [create, list, get, wrong] = requests;
    expect(create).toMatchObject({
      level: 30,
      reqId: 'create-1',
      req: { id: 'create-1', method: 'POST', path: '/v1/pets' },
      route: '/v1/pets',
      res: { statusCode: 201 },
      responseTime: expect.any(Number),
      caller: 'team-a',
    });
    // The second entry of API_KEYS, unnamed.
    expect(list.caller).toBe('API_KEYS#2');
    expect(get).toMatchObject({ route: '/v1/pets/:petId', res: { statusCode: 200 }, caller: 'team-a' });
    expect(wrong).toMatchObject({ route: '/v1/pets', res: { statusCode: 401 } });
    expect(wrong).not.toHaveProperty('caller');
    expect(requests[5].req.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('never contain a key, a credential or the Authorization header, even under load', () => {
    const text = service.output();
    expect(lines.filter((line) => line.msg === 'request completed').length).toBeGreaterThanOrEqual(306);
    for (const secret of [TEST_API_KEY, OTHER_API_KEY, WRONG_KEY, BASIC]) expect(text).not.toContain(secret);
    // Nor anything computed from a key alone, which a dictionary could be tried against offline.
    for (const key of [TEST_API_KEY, OTHER_API_KEY, WRONG_KEY]) {
      for (const digest of digestsOf(key)) expect(text).not.toContain(digest.slice(0, 8));
    }
    expect(text.toLowerCase()).not.toContain('authorization');
    expect(text.toLowerCase()).not.toContain('bearer');
  });
});

describe('LOG_LEVEL', () => {
  it('silences request lines at warn', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-logs-'));
    try {
      const port = await freePort();
      const service = runService({
        API_KEYS: TEST_API_KEY,
        DATABASE_URL: `sqlite:${join(folder, 'p.sqlite')}`,
        LOG_LEVEL: 'warn',
        PORT: String(port),
      });
      await waitUntilLive(`http://127.0.0.1:${port}`);
      const response = await fetch(`http://127.0.0.1:${port}/v1/pets`, {
        headers: { authorization: `Bearer ${TEST_API_KEY}` },
      });
      expect(response.status).toBe(200);
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      expect(service.output()).not.toContain('request completed');
      expect(service.output()).not.toContain('listening');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('a log reader that stalls', () => {
  it('costs at most 1 MiB of waiting lines: the rest are dropped, counted in /metrics, and summed up once it reads again', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-logs-'));
    try {
      const service = await startService({
        API_KEYS: TEST_API_KEY,
        DATABASE_URL: `sqlite:${join(folder, 'p.sqlite')}`,
        LOG_LEVEL: 'info',
        RATE_LIMIT_PER_MINUTE: '0',
        ...heapSnapshotOnSignal(folder),
      });
      // The reader stops: the pipe fills (the kernel's 64 KiB and this side's), and the service's writes would block.
      service.child.stdout!.pause();
      const agent = new Agent({ keepAlive: true, maxSockets: 16 });
      const statuses = new Set<number | string>();
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          for (let n = 0; n < 2_000; n++) statuses.add(await getPets(agent, service.baseUrl));
        }),
      );
      agent.destroy();
      // Served throughout: a stalled reader never blocks the service.
      expect([...statuses]).toEqual([200]);
      const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
      const dropped = Number(/^petstore_log_lines_dropped_total (\d+)$/m.exec(metrics)?.[1]);
      // 32,000 request lines of about 300 bytes: all but about 1 MiB of them dropped.
      expect(dropped).toBeGreaterThan(20_000);
      service.child.kill('SIGTTIN');
      const held = await heldObjects(folder);
      const waiting = held.stringLengths('{"level":30').reduce((sum, length) => sum + length, 0);
      expect(waiting).toBeLessThanOrEqual(2 * 1024 * 1024);

      service.child.stdout!.resume();
      await waitFor(() => service.output().includes('log lines dropped'), 'the summary of the dropped lines', 30_000);
      expect(logLinesOf(service.output()).find((line) => line.context === 'Logging')).toMatchObject({
        level: 40,
        dropped: expect.any(Number),
        msg: expect.stringMatching(/^\d+ log lines dropped: stdout was not read fast enough \(counted in \/metrics\)$/),
      });
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

/** GET /v1/pets with the test key on a kept-alive connection: its status, or its error. */
function getPets(agent: Agent, baseUrl: string): Promise<number | string> {
  return new Promise((resolve) => {
    const request = get(`${baseUrl}/v1/pets`, { agent, headers: { authorization: `Bearer ${TEST_API_KEY}` } });
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}
