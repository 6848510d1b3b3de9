import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, TEST_API_KEY, startTestApp, type TestApp } from './support/test-app';

/** A raw TCP client, to misbehave as real HTTP clients do not. */
function open(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

describe('hostile clients', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp({
      env: { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000', KEEP_ALIVE_TIMEOUT_MS: '1000' },
    });
    port = (t.app.getHttpServer().address() as { port: number }).port;
  });
  afterAll(() => t?.close());

  /** Well-behaved requests still get prompt answers. */
  async function othersAreServed() {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.http().get('/v1/pets').set(AUTH).timeout(2_000)),
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
      await slow.closed; // within the headers timeout (1 s) and Node's check interval
      expect(sent).toBeLessThan(request.length);
      expect(slow.received()).toMatch(/^(HTTP\/1\.1 408|$)/);
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
    await stalled.closed; // within the request timeout (2 s)
    expect(stalled.received()).not.toContain('201');
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
