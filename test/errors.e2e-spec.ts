import type { LoggerService } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH, JSON_CONTENT_TYPE, errorBody, startTestApp, type TestApp } from './support/test-app';

/** Keeps what the application logs, to check what a 500 leaves behind. */
class CapturingLogger implements LoggerService {
  readonly lines: string[] = [];
  log(...args: unknown[]) {
    this.keep(args);
  }
  error(...args: unknown[]) {
    this.keep(args);
  }
  warn(...args: unknown[]) {
    this.keep(args);
  }
  debug(...args: unknown[]) {
    this.keep(args);
  }
  verbose(...args: unknown[]) {
    this.keep(args);
  }
  private keep(args: unknown[]) {
    const errors = (_key: string, value: unknown) =>
      value instanceof Error ? { message: value.message, stack: value.stack } : value;
    this.lines.push(args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg, errors))).join(' '));
  }
}

describe('errors outside the operations', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t?.close());

  it.each([
    ['GET', '/pets', 'no route for GET /pets'],
    ['GET', '/', 'no route for GET /'],
    ['GET', '/v2/pets', 'no route for GET /v2/pets'],
    ['GET', '/v1/pets/1/owner', 'no route for GET /v1/pets/1/owner'],
    ['POST', '/v1/pets/', 'no route for POST /v1/pets/'],
    ['GET', '/v1/PETS', 'no route for GET /v1/PETS'],
    ['GET', '/v1/pets/', 'no route for GET /v1/pets/'],
  ])('answers 404 route_not_found for %s %s', async (method, path, message) => {
    const response = await t.http()[method.toLowerCase() as 'get' | 'post'](path).set(AUTH);
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toBe(JSON_CONTENT_TYPE);
    expect(response.body).toEqual(errorBody(404, 'route_not_found', message));
  });

  // A trailing slash is part of no route: never getPet with an empty id, which would ask for a key and carry
  // getPet's deprecation headers.
  it.each([
    ['GET', '/v1/pets/'],
    ['GET', '/v1/pets/?limit=1'],
    ['POST', '/v1/pets/'],
    ['DELETE', '/v1/pets/'],
    ['GET', '/v1/pets/1/'],
    ['GET', '/health/live/'],
    ['GET', '/v1/openapi.json/'],
  ])("answers %s %s 404 route_not_found without a key, with no operation's headers", async (method, url) => {
    const response = await t.http()[method.toLowerCase() as 'get' | 'post' | 'delete'](url);
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toBe(JSON_CONTENT_TYPE);
    for (const header of ['www-authenticate', 'deprecation', 'sunset', 'link', 'allow']) {
      expect(response.headers).not.toHaveProperty(header);
    }
    expect(response.body).toEqual(errorBody(404, 'route_not_found', `no route for ${method} ${url.split('?')[0]}`));
  });

  it.each([
    ['delete', '/v1/pets', 'GET, HEAD, POST'],
    ['put', '/v1/pets', 'GET, HEAD, POST'],
    ['patch', '/v1/pets/1', 'GET, HEAD'],
    ['post', '/v1/pets/1', 'GET, HEAD'],
  ] as const)('answers 405 method_not_allowed with Allow for %s %s', async (method, path, allow) => {
    const response = await t.http()[method](path).set(AUTH);
    expect(response.status).toBe(405);
    expect(response.headers['content-type']).toBe(JSON_CONTENT_TYPE);
    expect(response.headers.allow).toBe(allow);
    expect(response.body).toEqual(
      errorBody(405, 'method_not_allowed', `${method.toUpperCase()} is not supported on ${path}; use ${allow}`),
    );
  });

  it.each([
    ['/v1/pets/%ZZ', 400, 'bad_request', 'the URL is malformed (invalid percent-encoding)'],
    ['/v1/pets/%', 400, 'bad_request', 'the URL is malformed (invalid percent-encoding)'],
  ])('answers what the router refuses (%s) in the Error shape', async (path, status, code, message) => {
    const response = await t.http().get(path).set(AUTH);
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toBe(JSON_CONTENT_TYPE);
    expect(response.body).toEqual(errorBody(status, code, message));
  });

  it('answers HEAD like GET, without a body', async () => {
    const response = await t.http().head('/v1/pets').set(AUTH);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(JSON_CONTENT_TYPE);
    expect(response.text).toBeUndefined();
  });
});

describe('an unexpected failure', () => {
  let t: TestApp;
  const logger = new CapturingLogger();
  beforeAll(async () => {
    t = await startTestApp({ logger });
    // Break the database under the running service: every query on pets now fails.
    await t.app.get(DataSource).query('DROP TABLE pets');
  });
  afterAll(() => t?.close());

  it('answers 500 internal_error without its details, and logs them', async () => {
    const response = await t.http().get('/v1/pets').set(AUTH);
    expect(response.status).toBe(500);
    expect(response.headers['content-type']).toBe(JSON_CONTENT_TYPE);
    expect(response.body).toEqual(errorBody(500, 'internal_error', 'internal server error'));
    expect(response.text).not.toMatch(/pets|SQLITE|table|at /i);
    const cause = logger.lines.find((line) => line.includes('unexpected failure'));
    expect(cause).toContain('no such table: pets');
    expect(cause).toContain('"method":"GET"');
    expect(cause).toContain('"path":"/v1/pets"');
    // The id the answer (and the request's own log line) carries.
    expect(cause).toContain(`"reqId":"${response.headers['x-request-id']}"`);
  });
});
