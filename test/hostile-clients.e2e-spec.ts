import { get, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { open, parseResponses } from './support/raw-client';
import { scaled, waitFor } from './support/wait-for';
import { AUTH, TEST_API_KEY, startTestApp, type TestApp } from './support/test-app';

describe('hostile clients', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp({
      // Timeouts a loaded machine stretches as it does every deadline (a byte every 50 ms takes 15 s to send the
      // slow client's headers: still well past the headers timeout).
      env: {
        HEADERS_TIMEOUT_MS: String(scaled(1_000)),
        REQUEST_TIMEOUT_MS: String(scaled(2_000)),
        KEEP_ALIVE_TIMEOUT_MS: String(scaled(1_000)),
      },
    });
    port = (t.app.getHttpServer().address() as { port: number }).port;
  });
  afterAll(() => t?.close());

  /** Well-behaved requests still get prompt answers. */
  async function othersAreServed() {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.http().get('/v1/pets').set(AUTH).timeout(scaled(2_000))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
  }

  it('cuts off a client that sends its headers a byte at a time, without slowing the others', async () => {
    const slow = await open(port);
    const request = `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nX-Padding: ${'a'.repeat(200)}\r\n\r\n`;
    let sent = 0;
    const drip = setInterval(() => {
      if (!slow.socket.destroyed && sent < request.length) slow.socket.write(request[sent++]);
    }, 50);
    try {
      await othersAreServed();
      await slow.closed; // within the headers timeout and Node's check interval
      expect(sent).toBeLessThan(request.length);
      expect(answersOf(slow.received())).toEqual(TIMED_OUT);
    } finally {
      clearInterval(drip);
    }
  });

  it('cuts off a client that never finishes its body', async () => {
    const stalled = await open(port);
    stalled.socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_API_KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
    );
    await othersAreServed();
    await stalled.closed; // within the request timeout
    expect(answersOf(stalled.received())).toEqual(TIMED_OUT);
    const list = await t.http().get('/v1/pets').set(AUTH);
    expect(list.body).toEqual([]);
  });

  it('survives many idle connections, and closes them', async () => {
    const idle = await Promise.all(Array.from({ length: 300 }, () => open(port)));
    await othersAreServed();
    await Promise.all(idle.map((connection) => connection.closed));
    await othersAreServed();
  });

  it.each([
    ['an overlong URL', `GET /v1/pets?limit=${'1'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['an overlong header', `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`],
    [
      'too many headers',
      `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n\r\n`,
    ],
  ])('refuses %s with a 4xx', async (_case, raw) => {
    const client = await open(port);
    client.socket.write(raw);
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 4\d\d /);
  });
});

describe('a flood of idle connections (MAX_CONNECTIONS)', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    // Every connection comes from one address here: its share is the whole (test/connection-share.e2e-spec.ts).
    t = await startTestApp({ env: { MAX_CONNECTIONS: '50', MAX_CONNECTIONS_PER_ADDRESS: '50' } });
    port = (t.app.getHttpServer().address() as { port: number }).port;
  });
  afterAll(() => t?.close());

  const openConnections = () => connectionsOf(t);

  it('never holds more than the bound, sheds idle connections, and keeps answering health checks', async () => {
    const flood = await Promise.all(Array.from({ length: 80 }, () => open(port)));
    expect(await openConnections()).toBeLessThanOrEqual(50);
    // 30 refused at the door; past 90 % of the bound, idle ones are shed until 45 remain.
    await waitFor(() => flood.filter((client) => client.socket.destroyed).length >= 35, 'idle connections shed');
    for (let check = 0; check < 5; check++) {
      const live = await fetch(`http://127.0.0.1:${port}/health/live`, { signal: AbortSignal.timeout(scaled(2_000)) });
      expect(live.status).toBe(200);
      expect(await openConnections()).toBeLessThanOrEqual(50);
    }
    const served = await t.http().get('/v1/pets').set(AUTH).timeout(scaled(2_000));
    expect(served.status).toBe(200);
    // 30 refused at the door, and at least 5 idle ones closed to make room for the checks.
    expect(flood.filter((client) => client.socket.destroyed).length).toBeGreaterThanOrEqual(35);
    for (const client of flood) client.socket.destroy();
  });
});

/** The same bound, small, against connections that hold a request open and stall on their client. */
describe('a flood of stalled connections (MAX_CONNECTIONS=20)', () => {
  const BOUND = 20;
  const ATTACKERS = 24;
  let t: TestApp;
  let port: number;
  /** Connections the server accepted or refused at the door since the test began. */
  let arrived = 0;
  beforeAll(async () => {
    t = await startTestApp({ env: { MAX_CONNECTIONS: String(BOUND), MAX_CONNECTIONS_PER_ADDRESS: String(BOUND) } });
    port = (t.app.getHttpServer().address() as { port: number }).port;
    const server = t.app.getHttpServer() as Server;
    server.on('connection', () => arrived++);
    server.on('drop', () => arrived++);
  });
  beforeEach(() => {
    arrived = 0;
  });
  afterAll(() => t?.close());

  const openConnections = () => connectionsOf(t);

  /**
   * Once the attack has reached the server (Node refuses the connections past the bound at the door, and a probe
   * that arrived in that instant too) and its connections have been shed below 90 % of the bound, polls
   * /health/ready while the attack still holds its sockets: every probe must be answered.
   */
  async function probeThroughout() {
    await waitFor(() => arrived >= ATTACKERS, 'the attack to reach the server');
    await waitFor(async () => (await openConnections()) <= BOUND * 0.9, 'the stalled connections to be shed');
    const statuses: Array<number | string> = [];
    for (let n = 0; n < 20; n++) {
      statuses.push(await probe(port));
      expect(await openConnections()).toBeLessThanOrEqual(BOUND);
    }
    expect(statuses).toEqual(Array(20).fill(200));
  }

  it('sheds connections whose client pipelines requests and never reads the answers', async () => {
    // About 5.6 MB of answers each, past what the kernel buffers (4 MB at most): the server is left holding the rest.
    const request = 'GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(400);
    const attack = await Promise.all(Array.from({ length: ATTACKERS }, () => openUnread(port)));
    try {
      for (const client of attack) client.socket.write(request);
      await probeThroughout();
    } finally {
      for (const client of attack) client.socket.destroy();
    }
  });

  it('sheds connections whose client, with a valid key, never sends the body it announced', async () => {
    const head = `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${AUTH.authorization}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`;
    const attack = await Promise.all(Array.from({ length: ATTACKERS }, () => open(port)));
    try {
      for (const client of attack) client.socket.write(head);
      await probeThroughout();
    } finally {
      for (const client of attack) client.socket.destroy();
    }
  });
});

/** How many connections the server of `t` holds open now. */
function connectionsOf(t: TestApp): Promise<number> {
  return new Promise((resolve, reject) =>
    t.app
      .getHttpServer()
      .getConnections((error: Error | null, count: number) => (error ? reject(error) : resolve(count))),
  );
}

/** GET /health/ready on a connection of its own, as a load balancer's checker sends it: the status, or the error. */
function probe(port: number): Promise<number | string> {
  return new Promise((resolve) => {
    const request = get(
      { host: '127.0.0.1', port, path: '/health/ready', agent: false, timeout: scaled(5_000) },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** A connection whose client never reads what it is sent (its receive buffer fills, then the server's). */
function openUnread(port: number): Promise<{ socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.pause();
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket }));
    socket.once('error', reject);
  });
}

/** What a client cut off for slowness gets: one answer, 408 in the Error shape, and nothing after it. */
const TIMED_OUT = {
  first: {
    status: 408,
    body: { code: 'request_timeout', message: 'the request was not received in time', status: 408 },
  },
  more: [],
};

/** The answers a raw connection received: the first one's status and body, and any after it. */
function answersOf(received: string) {
  const [first, ...more] = parseResponses(received);
  return { first: first && { status: first.status, body: JSON.parse(first.body) as unknown }, more };
}
