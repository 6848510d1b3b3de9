import { ApiKeyVerifier } from '@app/auth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { open, parseResponses } from './support/raw-client';
import { AUTH, JSON_CONTENT_TYPE, errorBody, startTestApp, type TestApp } from './support/test-app';

const LIMIT = 3;
const WRONG = { authorization: 'Bearer wrong-key-0123456789abcdef' };
const INVALID = errorBody(401, 'invalid_api_key', 'the API key is not valid');

function tooMany(retryAfter: string) {
  return errorBody(
    429,
    'too_many_auth_failures',
    `more than ${LIMIT} requests without a valid API key from this address in a minute; retry in ${retryAfter} s`,
  );
}

/** The failed-authentication limit per client address (AUTH_FAILURES_PER_MINUTE), in one instance's memory. */
describe('too many failed authentications from one address', () => {
  let t: TestApp;
  let verify: { mockClear(): void };

  beforeAll(async () => {
    t = await startTestApp({ env: { AUTH_FAILURES_PER_MINUTE: String(LIMIT) } });
    verify = vi.spyOn(t.app.get(ApiKeyVerifier, { strict: false }), 'verify');
  });
  afterAll(() => t?.close());

  it('answers 401 up to the limit, missing and wrong keys alike, then 429 with Retry-After', async () => {
    expect((await t.http().get('/v1/pets').set(WRONG)).body).toEqual(INVALID);
    expect((await t.http().get('/v1/pets')).status).toBe(401);
    expect((await t.http().get('/v1/pets').set(WRONG)).body).toEqual(INVALID);
    const refused = await t.http().get('/v1/pets').set(WRONG);
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toBe(JSON_CONTENT_TYPE);
    expect(refused.headers['retry-after']).toMatch(/^(59|60)$/);
    expect(refused.headers['www-authenticate']).toBeUndefined();
    expect(refused.body).toEqual(tooMany(refused.headers['retry-after']));
  });

  it('closes the connection with the 429: each further try costs a new connection', async () => {
    const port = (t.app.getHttpServer().address() as { port: number }).port;
    const client = await open(port);
    client.socket.write(`GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${WRONG.authorization}\r\n\r\n`);
    await client.closed;
    const [refused] = parseResponses(client.received());
    expect([refused.status, refused.headers.connection]).toEqual([429, 'close']);
    expect(JSON.parse(refused.body)).toEqual(tooMany(refused.headers['retry-after']));
  });

  it('serves a valid key from the blocked address, and keeps refusing failures there without comparing more', async () => {
    verify.mockClear();
    const created = await t.http().post('/v1/pets').set(AUTH).send({ name: 'Rex', categoryId: 1 });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: 1 });
    const refused = await t.http().get('/v1/pets').set(WRONG);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(tooMany(refused.headers['retry-after']));
    expect((await t.http().get('/v1/pets')).status).toBe(429);
  });

  it('still answers what needs no key: health, metrics, unknown routes', async () => {
    expect((await t.http().get('/health/live')).status).toBe(200);
    expect((await t.http().get('/metrics')).status).toBe(200);
    expect((await t.http().get('/v1/nothing-here').set(WRONG)).status).toBe(404);
  });

  it('does not take X-Forwarded-For from a client unless TRUST_PROXY says so', async () => {
    const refused = await t.http().get('/v1/pets').set(WRONG).set('x-forwarded-for', '198.51.100.9');
    expect(refused.status).toBe(429);
  });
});

describe('failed authentications behind a trusted proxy (TRUST_PROXY=loopback)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { AUTH_FAILURES_PER_MINUTE: String(LIMIT), TRUST_PROXY: 'loopback' } });
  });
  afterAll(() => t?.close());

  const from = (address: string, headers: Record<string, string>) =>
    t.http().get('/v1/pets').set(headers).set('x-forwarded-for', address);

  it('counts each client address of X-Forwarded-For on its own', async () => {
    for (let n = 0; n < LIMIT; n++) expect((await from('203.0.113.7', WRONG)).status).toBe(401);
    expect((await from('203.0.113.7', WRONG)).status).toBe(429);
    expect((await from('203.0.113.7', AUTH)).status).toBe(200);
    // Another client behind the same proxy is not held up by the first.
    expect((await from('198.51.100.9', AUTH)).status).toBe(200);
    expect((await from('198.51.100.9', WRONG)).body).toEqual(INVALID);
    // The proxy's own address is another client again.
    expect((await t.http().get('/v1/pets').set(AUTH)).status).toBe(200);
  });
});

describe('AUTH_FAILURES_PER_MINUTE=0', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp({ env: { AUTH_FAILURES_PER_MINUTE: '0' } })));
  afterAll(() => t?.close());

  it('turns the limit off', async () => {
    for (let n = 0; n < 10; n++) expect((await t.http().get('/v1/pets').set(WRONG)).body).toEqual(INVALID);
    expect((await t.http().get('/v1/pets').set(AUTH)).status).toBe(200);
  });
});
