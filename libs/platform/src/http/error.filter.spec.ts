import { HttpException, Logger, UnprocessableEntityException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withErrorFilter } from '@test/support/fastify-harness';
import { open } from '@test/support/raw-client';
import { waitFor } from '@test/support/wait-for';
import { AppError, type ErrorKind } from '../errors/app-error';
import { JSON_CONTENT_TYPE } from '../errors/error-body';
import type { FailureTranslator } from './failure-translator';
import { MAX_BODY_BYTES } from './http-limits';
import { RouteIndex } from './route-index';

/** A server whose one route fails with what `failure` makes: the filter answers it. */
function failingWith(failure: () => unknown, translators?: FailureTranslator[]) {
  const routes = new RouteIndex();
  routes.add('GET', '/things/:id');
  routes.add('DELETE', '/things/:id');
  const { fastify } = withErrorFilter({ routes, translators });
  const codes: Array<string | undefined> = [];
  fastify.addHook('onResponse', (request, _reply, done) => {
    codes.push(request.errorCode);
    done();
  });
  fastify.get('/things/:id', () => {
    throw failure();
  });
  return { fastify, codes };
}

describe('the error filter', () => {
  const errors = vi.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  const warnings = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  afterEach(() => {
    errors.mockClear();
    warnings.mockClear();
  });

  it.each<[ErrorKind, number]>([
    ['invalid', 400],
    ['unauthenticated', 401],
    ['forbidden', 403],
    ['not_found', 404],
    ['conflict', 409],
    ['unprocessable', 422],
    ['rate_limited', 429],
  ])(
    'answers an AppError of kind %s with status %i, its code and message, in the Error shape',
    async (kind, status) => {
      const { fastify, codes } = failingWith(() => new AppError(kind, 'thing_refused', 'the thing is refused'));
      const answer = await fastify.inject({ method: 'GET', url: '/things/1' });
      expect(answer.statusCode).toBe(status);
      expect(answer.headers['content-type']).toBe(JSON_CONTENT_TYPE);
      expect(answer.headers['retry-after']).toBeUndefined();
      expect(answer.json()).toEqual({ code: 'thing_refused', message: 'the thing is refused', status });
      expect(codes).toEqual(['thing_refused']);
      expect(errors).not.toHaveBeenCalled();
    },
  );

  it('asks a client to retry an unavailable answer in 2 seconds', async () => {
    const { fastify } = failingWith(() => new AppError('unavailable', 'thing_unavailable', 'come back later'));
    const answer = await fastify.inject({ method: 'GET', url: '/things/1' });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('2');
    expect(answer.json()).toEqual({ code: 'thing_unavailable', message: 'come back later', status: 503 });
  });

  it("words Fastify's own request errors as the contract does", async () => {
    const { fastify } = failingWith(
      () => new HttpException('Request body is too large', 413, { cause: { code: 'FST_ERR_CTP_BODY_TOO_LARGE' } }),
    );
    const answer = await fastify.inject({ method: 'GET', url: '/things/1' });
    expect(answer.statusCode).toBe(413);
    expect(answer.json()).toEqual({
      code: 'payload_too_large',
      message: `request body must not exceed ${MAX_BODY_BYTES} bytes`,
      status: 413,
    });
  });

  it("joins a 4xx HttpException's messages (class-validator's list) into one", async () => {
    const { fastify } = failingWith(() => new UnprocessableEntityException(['name is empty', 'age is negative']));
    const answer = await fastify.inject({ method: 'GET', url: '/things/1' });
    expect(answer.statusCode).toBe(422);
    expect(answer.json()).toEqual({ code: 'bad_request', message: 'name is empty; age is negative', status: 422 });
  });

  it('answers an unknown path 404, and a known path asked with another method 405 with Allow', async () => {
    const { fastify } = failingWith(() => new Error('never thrown'));
    const unknown = await fastify.inject({ method: 'GET', url: '/nothing?secret=1' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers.allow).toBeUndefined();
    expect(unknown.json()).toEqual({ code: 'route_not_found', message: 'no route for GET /nothing', status: 404 });
    const wrongMethod = await fastify.inject({ method: 'PUT', url: '/things/7' });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('DELETE, GET');
    expect(wrongMethod.json()).toEqual({
      code: 'method_not_allowed',
      message: 'PUT is not supported on /things/7; use DELETE, GET',
      status: 405,
    });
  });

  it("answers a capability's failure as its translator says, logging the translator's warning with the request id", async () => {
    const translators: FailureTranslator[] = [
      {
        translate: (exception) =>
          (exception as { code?: string }).code === 'DOWN'
            ? { error: new AppError('unavailable', 'store_unavailable', 'the store is down'), warning: 'store down' }
            : undefined,
        loggable: (exception) => ({ hidden: true, of: (exception as { code?: string }).code }),
      },
    ];
    const { fastify } = failingWith(
      () => Object.assign(new Error('connection refused'), { code: 'DOWN' }),
      translators,
    );
    const answer = await fastify.inject({ method: 'GET', url: '/things/1', headers: { 'x-request-id': 'req-7' } });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('2');
    expect(answer.json()).toEqual({ code: 'store_unavailable', message: 'the store is down', status: 503 });
    expect(warnings.mock.calls).toEqual([
      [
        {
          msg: 'store down',
          reqId: 'req-7',
          err: { hidden: true, of: 'DOWN' },
          method: 'GET',
          path: '/things/1',
        },
      ],
    ]);
    expect(errors).not.toHaveBeenCalled();
  });

  it('answers anything else 500 without a word of it, and logs it once, as the translators show it, with the request id', async () => {
    const { fastify, codes } = failingWith(() => new TypeError("Cannot read properties of undefined (reading 'name')"));
    const answer = await fastify.inject({
      method: 'GET',
      url: '/things/1?token=abc',
      headers: { 'x-request-id': 'r-1' },
    });
    expect(answer.statusCode).toBe(500);
    expect(answer.json()).toEqual({ code: 'internal_error', message: 'internal server error', status: 500 });
    expect(codes).toEqual(['internal_error']);
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0][0]).toEqual({
      msg: 'unexpected failure',
      reqId: 'r-1',
      err: expect.any(TypeError),
      method: 'GET',
      path: '/things/1',
    });
  });

  it('answers a 5xx HttpException 500 too: only the filter decides what a client learns of a fault', async () => {
    const { fastify } = failingWith(() => new HttpException('upstream said: password=hunter2', 502));
    const answer = await fastify.inject({ method: 'GET', url: '/things/1' });
    expect(answer.statusCode).toBe(500);
    expect(answer.body).not.toContain('hunter2');
    expect(answer.json()).toEqual({ code: 'internal_error', message: 'internal server error', status: 500 });
  });

  it("takes a client that left mid-body for what it is, not for a capability's failure that shares its code", async () => {
    // A translator that takes ECONNRESET for its own (the database's does: a lost connection to the server).
    const translated: unknown[] = [];
    const translators: FailureTranslator[] = [
      {
        translate: (exception) => {
          translated.push(exception);
          return (exception as { code?: string }).code === 'ECONNRESET'
            ? { error: new AppError('unavailable', 'store_unavailable', 'the store is down'), warning: 'store down' }
            : undefined;
        },
        loggable: (exception) => exception,
      },
    ];
    const { fastify, filter, listen } = withErrorFilter({ translators });
    const caught = vi.spyOn(filter, 'catch');
    const requests: FastifyRequest[] = [];
    fastify.addHook('onRequest', (request, _reply, done) => {
      requests.push(request);
      done();
    });
    fastify.post('/things', () => 'never reached');
    try {
      const client = await open(await listen());
      client.socket.write(
        'POST /things HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
      );
      await waitFor(() => requests.length > 0, 'the request to arrive');
      client.socket.destroy();
      // Its answer is never delivered, nor its response hooks run: the filter's verdict is all there is.
      await waitFor(() => caught.mock.calls.length > 0, 'the filter to be given the failure');
      expect((caught.mock.calls[0][0] as { code?: string }).code).toBe('ECONNRESET');
      expect(requests[0].errorCode).toBe('bad_request');
      expect(translated).toEqual([]);
      expect(warnings).not.toHaveBeenCalled();
      expect(errors).not.toHaveBeenCalled();
    } finally {
      await fastify.close();
    }
  });
});
