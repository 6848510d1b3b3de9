import { connect, type Socket } from 'node:net';
import { Controller, Get, Module } from '@nestjs/common';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Public, Responds } from '@app/platform';
import { call } from './support/http-client';
import { parseResponses } from './support/raw-client';
import { freePort } from './support/service-process';
import { AUTH, startTestApp, type TestApp } from './support/test-app';
import { waitFor } from './support/wait-for';

/*
 * No caller holds the API's port: one address opens at most MAX_CONNECTIONS_PER_ADDRESS connections (a quarter of
 * MAX_CONNECTIONS by default), whatever it sends on them, and readiness says not ready while the port is full of
 * connections none of which can be shed. Clients on other addresses of the loopback range (127.0.0.2, 127.0.0.3)
 * stand for other machines.
 */

/** Opens a connection from `localAddress`; resolves once it is open, with a promise of its close. */
function openFrom(port: number, localAddress: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress });
    socket.on('error', () => undefined);
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

/** The status a GET of `path` is answered with on `socket`, or 0 if the connection closes first. */
function answerOn(socket: Socket, path: string, headers = ''): Promise<number> {
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk) => {
      received += String(chunk);
      const [answer] = parseResponses(received);
      if (answer) resolve(answer.status);
    });
    socket.on('close', () => resolve(0));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n${headers}\r\n`);
  });
}

const closedByAddress = async (t: TestApp) =>
  /petstore_connections_closed_total\{reason="address"\} (\d+)/.exec((await t.http().get('/metrics')).text)?.[1];

describe('one address holds at most its share of MAX_CONNECTIONS', () => {
  let t: TestApp;
  let port: number;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    t = await startTestApp({ env: { MAX_CONNECTIONS: '40' } });
    port = (t.app.getHttpServer().address() as { port: number }).port;
  });
  afterEach(() => sockets.splice(0).forEach((socket) => socket.destroy()));
  afterAll(() => t?.close());

  it('closes the connections one address opens past a quarter of MAX_CONNECTIONS at once, and serves the others', async () => {
    const opened = await Promise.all(Array.from({ length: 15 }, () => openFrom(port, '127.0.0.2')));
    sockets.push(...opened.map(({ socket }) => socket));
    await waitFor(() => opened.filter(({ socket }) => socket.destroyed).length === 5, 'five to be closed');
    expect(await closedByAddress(t)).toBe('5');

    const other = await openFrom(port, '127.0.0.3');
    sockets.push(other.socket);
    expect(await answerOn(other.socket, '/v1/pets', `Authorization: ${AUTH.authorization}\r\n`)).toBe(200);

    // Once they close, the same address may open its share again: tried until the service has seen them close.
    for (const { socket } of opened) socket.destroy();
    await waitFor(async () => {
      const again = await Promise.all(Array.from({ length: 10 }, () => openFrom(port, '127.0.0.2')));
      sockets.push(...again.map(({ socket }) => socket));
      const answers = await Promise.all(again.map(({ socket }) => answerOn(socket, '/health/live')));
      again.forEach(({ socket }) => socket.destroy());
      return answers.every((status) => status === 200);
    }, 'the address to open ten again, each answered');
  });
});

/** A route that answers once the test opens its gate: a request the service is still working on. */
const gate = { open: Promise.withResolvers<void>(), waiting: 0 };

@ApiSchema({ name: 'GatePassed' })
class GatePassed {
  @ApiProperty() passed: boolean;
}

@Controller('gate')
class GateController {
  @Get()
  @Public()
  @Responds(200, GatePassed, { description: 'Once the test opened the gate.' })
  async wait(): Promise<{ passed: true }> {
    gate.waiting++;
    await gate.open.promise;
    return { passed: true };
  }
}

@Module({ controllers: [GateController] })
class GateModule {}

describe('readiness while the API port is full', () => {
  let t: TestApp;
  let port: number;
  let management: string;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    const managementPort = await freePort();
    management = `http://127.0.0.1:${managementPort}`;
    t = await startTestApp({
      env: { MAX_CONNECTIONS: '16', MAX_CONNECTIONS_PER_ADDRESS: '16', MANAGEMENT_PORT: String(managementPort) },
      features: [GateModule],
    });
    port = (t.app.getHttpServer().address() as { port: number }).port;
  });
  afterAll(async () => {
    gate.open.resolve();
    sockets.forEach((socket) => socket.destroy());
    await t?.close();
  });

  it('says not ready while every connection holds a request the service works on, and ready once they are idle', async () => {
    expect((await call(management, 'GET', '/health/ready')).status).toBe(200);
    const held = await Promise.all(Array.from({ length: 16 }, () => openFrom(port, '127.0.0.2')));
    sockets.push(...held.map(({ socket }) => socket));
    for (const { socket } of held) socket.write('GET /v1/gate HTTP/1.1\r\nHost: x\r\n\r\n');
    await waitFor(() => gate.waiting === 16, 'every connection to hold a request');

    const full = await call(management, 'GET', '/health/ready');
    expect([full.status, full.body]).toEqual([
      503,
      {
        code: 'not_ready',
        message: "not ready: the API's port is at MAX_CONNECTIONS (16 open, none idle)",
        status: 503,
      },
    ]);

    gate.open.resolve();
    // Answered, the connections are idle: readiness sheds what it must to take a new one.
    await waitFor(async () => (await call(management, 'GET', '/health/ready')).status === 200, 'readiness again');
  });
});
