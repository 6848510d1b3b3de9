import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { withErrorFilter } from '@test/support/fastify-harness';
import { exchange } from '@test/support/raw-client';
import { AppError } from '../errors/app-error';
import { MAX_BODY_BYTES } from '../http/http-limits';
import { Draining } from '../lifecycle/draining';
import { MetricsService } from '../metrics/metrics.service';
import { closeWhenDraining } from './close-when-draining';
import { countRequest } from './count-request';
import { sendContinue } from './expect-continue';
import { logRequest } from './log-request';
import { refuseMalformedHeaders } from './refuse-malformed-headers';
import { refuseUnroutable } from './refuse-unroutable';
import { sendRequestId } from './request-id';

/**
 * Each step of the request pipeline (request-pipeline.ts lists them in order) on a bare Fastify server with the core's
 * error filter: what it lets through, and what it refuses, in the Error shape. test/ runs them all, in the application.
 */
const servers: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server with `steps` registered, a route `GET|POST /things/:id`, and a count of the bodies it parsed. */
function serverWith(register: (fastify: FastifyInstance) => void, config: Record<string, unknown> = {}) {
  const harness = withErrorFilter();
  const { fastify } = harness;
  servers.push(fastify);
  const parsed = { bodies: 0 };
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    parsed.bodies++;
    done(null, JSON.parse(body as string));
  });
  register(fastify);
  fastify.route({
    method: ['GET', 'POST'],
    url: '/things/:id',
    config,
    handler: (request) => ({ caller: request.caller ?? null }),
  });
  return { ...harness, parsed };
}

const refusal = (status: number, code: string, message: string) => ({ status, code, message });

describe('sendRequestId', () => {
  it("names every answer by its request: the caller's sane X-Request-Id, or a new UUID", async () => {
    const { fastify } = serverWith((server) => server.addHook('onRequest', sendRequestId));
    const given = await fastify.inject({ url: '/things/1', headers: { 'x-request-id': 'trace-7.a:b' } });
    expect(given.headers['x-request-id']).toBe('trace-7.a:b');
    const insane = await fastify.inject({ url: '/things/1', headers: { 'x-request-id': 'no spaces <here>' } });
    expect(insane.headers['x-request-id']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('refuseUnroutable', () => {
  it('refuses an unknown path and a trailing slash before the body is read', async () => {
    const { fastify, parsed } = serverWith((server) => server.addHook('onRequest', refuseUnroutable));
    const unknown = await fastify.inject({ method: 'POST', url: '/nothing', payload: { a: 1 } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(refusal(404, 'route_not_found', 'no route for POST /nothing'));
    const slash = await fastify.inject({ method: 'POST', url: '/things/1/?x=1', payload: { a: 1 } });
    expect(slash.statusCode).toBe(404);
    expect(slash.json()).toEqual(refusal(404, 'route_not_found', 'no route for POST /things/1/'));
    expect(parsed.bodies).toBe(0);
    const known = await fastify.inject({ method: 'POST', url: '/things/1', payload: { a: 1 } });
    expect(known.statusCode).toBe(200);
    expect(parsed.bodies).toBe(1);
  });
});

describe('refuseMalformedHeaders', () => {
  async function answersTo(head: string) {
    const { listen } = serverWith((server) => server.addHook('onRequest', refuseMalformedHeaders(['Idempotency-Key'])));
    const [answer] = await exchange(await listen(), `${head}\r\n\r\n`, 1);
    return { status: answer.status, body: answer.body === '' ? '' : JSON.parse(answer.body) };
  }

  it('lets a well-formed request through, repeated fields that may repeat included', async () => {
    expect(await answersTo('GET /things/1 HTTP/1.1\r\nHost: a.example:8080\r\nAccept: a\r\nAccept: b')).toEqual({
      status: 200,
      body: { caller: null },
    });
    // HTTP/1.0 has no Host.
    expect((await answersTo('GET /things/1 HTTP/1.0')).status).toBe(200);
  });

  it.each([
    ['GET /things/1 HTTP/1.1', 'an HTTP/1.1 request must carry a Host header'],
    ['GET /things/1 HTTP/1.1\r\nHost: a.example\r\nHost: b.example', 'the Host header may be given only once'],
    ['GET /things/1 HTTP/1.1\r\nHost: a/b', 'the Host header must be a host name or address, and a port'],
    [
      'GET /things/1 HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer x\r\nauthorization: Bearer y',
      'the Authorization header may be given only once',
    ],
    [
      'GET /things/1 HTTP/1.1\r\nHost: a\r\nIdempotency-Key: 1\r\nIdempotency-Key: 2',
      'the Idempotency-Key header may be given only once',
    ],
    [
      'POST /things/1 HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked',
      'Transfer-Encoding may only be chunked: no other coding is taken',
    ],
  ])('refuses %j 400 bad_request', async (head, message) => {
    expect(await answersTo(head)).toEqual({ status: 400, body: refusal(400, 'bad_request', message) });
  });
});

describe('sendContinue', () => {
  async function answersTo(length: number) {
    const { fastify, listen } = serverWith((server) => server.addHook('preParsing', sendContinue));
    // As the application: no automatic 100 Continue from Node.
    fastify.server.on('checkContinue', (request, response) => fastify.server.emit('request', request, response));
    const port = await listen();
    return exchange(
      port,
      `POST /things/1 HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n` +
        'Expect: 100-continue\r\nConnection: close\r\n\r\n',
      1,
    );
  }

  it('invites the body of a request that passed the steps before it, and only one within the limit', async () => {
    const [invited] = await answersTo(2);
    expect(invited.status).toBe(100);
    const [tooLarge] = await answersTo(MAX_BODY_BYTES + 1);
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body)).toEqual(
      refusal(413, 'payload_too_large', `request body must not exceed ${MAX_BODY_BYTES} bytes`),
    );
  });
});

describe('closeWhenDraining', () => {
  it('closes each connection after its answer while the service drains, and not before', async () => {
    const draining = new Draining();
    const { fastify } = serverWith((server) => server.addHook('onSend', closeWhenDraining(draining)));
    expect((await fastify.inject({ url: '/things/1' })).headers.connection).toBe('keep-alive');
    draining.begin();
    expect((await fastify.inject({ url: '/things/1' })).headers.connection).toBe('close');
  });

  it('closes the connection of an answer given before the whole body arrived', async () => {
    const { listen } = serverWith((server) => {
      server.addHook('onRequest', (_request, _reply, done) =>
        done(new AppError('unauthenticated', 'missing_api_key', 'no key')),
      );
      server.addHook('onSend', closeWhenDraining(new Draining()));
    });
    const [answer] = await exchange(
      await listen(),
      'POST /things/1 HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
    );
    expect(answer.status).toBe(401);
    expect(answer.headers.connection).toBe('close');
  });
});

describe('logRequest', () => {
  function logged(level: pino.Level = 'info') {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const logger = pino({ level, base: undefined, timestamp: false }, stream);
    return { lines, logger };
  }

  it('writes one line per answer: id, method, path without its query, route, status, caller, latency; no header', async () => {
    const { lines, logger } = logged();
    const { fastify } = serverWith((server) => {
      server.addHook('preParsing', (request, _reply, payload, done) => {
        request.caller = 'ci';
        done(null, payload);
      });
      server.addHook('onResponse', logRequest(logger));
    });
    await fastify.inject({
      url: '/things/7?token=secret',
      headers: { 'x-request-id': 'r-1', authorization: 'Bearer secret' },
    });
    await fastify.close();
    expect(lines).toEqual([
      {
        level: 30,
        reqId: 'r-1',
        req: { id: 'r-1', method: 'GET', path: '/things/7' },
        route: '/things/:id',
        caller: 'ci',
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
        msg: 'request completed',
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain('secret');
  });

  it('writes a 5xx at error, but a shutdown at debug and a dependency down at warn', async () => {
    const { lines, logger } = logged('debug');
    const { fastify } = serverWith((server) => server.addHook('onResponse', logRequest(logger)));
    const failing = (code: string) => () => {
      throw new AppError('unavailable', code, code);
    };
    fastify.get('/shutting-down', failing('shutting_down'));
    fastify.get('/not-ready', failing('not_ready'));
    fastify.get('/other', failing('database_unavailable'));
    for (const url of ['/shutting-down', '/not-ready', '/other']) await fastify.inject({ url });
    expect(lines.map(({ level, route, msg }) => ({ level, route, msg }))).toEqual([
      { level: 20, route: '/shutting-down', msg: 'request failed' },
      { level: 40, route: '/not-ready', msg: 'request failed' },
      { level: 50, route: '/other', msg: 'request failed' },
    ]);
  });
});

describe('countRequest', () => {
  it('counts every answer by route template, method and status; an unknown path as unmatched', async () => {
    const metrics = new MetricsService(
      { id: 'petstore', title: 'Pet Store', description: '', version: '1', release: '2.0.0' },
      pino({ level: 'silent' }),
    );
    const { fastify } = serverWith((server) => server.addHook('onResponse', countRequest(metrics)));
    await fastify.inject({ url: '/things/1' });
    await fastify.inject({ url: '/things/2' });
    await fastify.inject({ url: '/nowhere/3' });
    const text = await metrics.registry.metrics();
    expect(text).toContain('http_requests_total{route="/things/:id",method="GET",status="200"} 2');
    expect(text).toContain('http_requests_total{route="unmatched",method="GET",status="404"} 1');
    expect(text).not.toContain('/things/1');
  });
});
