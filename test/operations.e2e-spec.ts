import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH,
  JSON_CONTENT_TYPE,
  OTHER_API_KEY,
  RELEASE,
  TEST_API_KEY,
  digestsOf,
  errorBody,
  servedMethods,
  startTestApp,
  type TestApp,
} from './support/test-app';

describe('health checks', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t?.close());

  it('answers /health/live without a key', async () => {
    const response = await t.http().get('/health/live');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(JSON_CONTENT_TYPE);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toEqual({ status: 'ok', version: RELEASE });
  });

  it('answers /health/ready with the database check', async () => {
    const response = await t.http().get('/health/ready');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(JSON_CONTENT_TYPE);
    const database = { status: 'up', responseTime: expect.any(Number) };
    expect(response.body).toEqual({
      status: 'ok',
      info: { database },
      error: {},
      details: { database },
      version: RELEASE,
    });
  });

  it('lives outside /v1', async () => {
    const response = await t.http().get('/v1/health/live').set(AUTH);
    expect(response.status).toBe(404);
    expect(response.body).toEqual(errorBody(404, 'route_not_found', 'no route for GET /v1/health/live'));
  });

  it('answers 503 not_ready with Retry-After once the database is gone, while staying live', async () => {
    const broken = await startTestApp();
    try {
      await broken.app.get(DataSource).destroy();
      const ready = await broken.http().get('/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.headers['content-type']).toBe(JSON_CONTENT_TYPE);
      expect(ready.headers['retry-after']).toBe('2');
      expect(ready.body).toEqual(errorBody(503, 'not_ready', 'not ready: the database is unavailable'));
      expect((await broken.http().get('/health/live')).status).toBe(200);
    } finally {
      await broken.close().catch(() => undefined);
    }
  });
});

describe('metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await t.http().post('/v1/pets').set(AUTH).send({ name: 'Rex', categoryId: 1 });
    await t.http().get('/v1/pets').set(AUTH);
    await t.http().get('/v1/pets?limit=0').set(AUTH);
    await t.http().get('/v1/pets/1').set(AUTH);
    await t.http().get('/v1/pets/1').set(AUTH);
    await t.http().get('/v1/pets/2').set('authorization', `Bearer ${OTHER_API_KEY}`);
    await t.http().get('/v1/pets/1');
    await t.http().get('/nowhere/123');
  });
  afterAll(() => t?.close());

  const scrape = async () => {
    const response = await t.http().get('/metrics');
    expect(response.status).toBe(200);
    return response;
  };

  it('serves the Prometheus text format without a key', async () => {
    const response = await scrape();
    expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.text).toContain('# TYPE http_requests_total counter');
    expect(response.text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(response.text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(response.text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('says which release runs, as petstore_build_info{version}', async () => {
    const { text } = await scrape();
    expect(text).toContain(
      '# HELP petstore_build_info The release of the service this process runs (CHANGELOG.md); always 1.\n' +
        '# TYPE petstore_build_info gauge\n' +
        `petstore_build_info{version="${RELEASE}"} 1\n`,
    );
  });

  it('counts requests by route template, method and status, unknown routes as one', async () => {
    const { text } = await scrape();
    expect(text).toContain('http_requests_total{route="/v1/pets",method="POST",status="201"} 1');
    expect(text).toContain('http_requests_total{route="/v1/pets",method="GET",status="200"} 1');
    expect(text).toContain('http_requests_total{route="/v1/pets",method="GET",status="400"} 1');
    expect(text).toContain('http_requests_total{route="/v1/pets/:petId",method="GET",status="200"} 2');
    expect(text).toContain('http_requests_total{route="/v1/pets/:petId",method="GET",status="404"} 1');
    expect(text).toContain('http_requests_total{route="/v1/pets/:petId",method="GET",status="401"} 1');
    expect(text).toContain('http_requests_total{route="unmatched",method="GET",status="404"} 1');
    expect(text).not.toContain('/nowhere');
    expect(text).toMatch(
      /http_request_duration_seconds_count\{route="\/v1\/pets\/:petId",method="GET",status="200"\} 2/,
    );
  });

  it("counts calls to the deprecated getPet by the key's name or place, never by anything of the key", async () => {
    const { text } = await scrape();
    const line = (caller: string, count: number) =>
      `petstore_deprecated_operation_calls_total{operation="getPet",sunset="2030-12-05",caller="${caller}"} ${count}`;
    // The test application's API_KEYS: `e2e:<TEST_API_KEY>,<OTHER_API_KEY>`.
    expect(text).toContain(line('e2e', 2));
    expect(text).toContain(line('API_KEYS#2', 1));
    expect(text).toContain(line('anonymous', 1));
    for (const key of [TEST_API_KEY, OTHER_API_KEY]) {
      expect(text).not.toContain(key);
      for (const digest of digestsOf(key)) expect(text).not.toContain(digest.slice(0, 8));
    }
  });
});

describe('METRICS=off', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp({ env: { METRICS: 'off' } })));
  afterAll(() => t?.close());

  it('serves no /metrics, and the API as before', async () => {
    expect((await t.http().get('/v1/pets').set(AUTH)).status).toBe(200);
    const metrics = await t.http().get('/metrics');
    expect(metrics.status).toBe(404);
    expect(metrics.body).toEqual(errorBody(404, 'route_not_found', 'no route for GET /metrics'));
  });
});

/** The headers a security scanner looks at. */
const SECURITY_HEADER_NAMES =
  /^(content-security-policy|x-content-type-options|x-frame-options|referrer-policy|cross-origin-.*|cache-control|strict-transport-security|x-xss-protection|x-dns-prefetch-control|x-download-options|x-permitted-cross-domain-policies|origin-agent-cluster)$/;

describe('protection', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t?.close());

  it('sends the security headers of a JSON API on every API response', async () => {
    for (const response of [
      await t.http().get('/v1/pets').set(AUTH),
      await t.http().get('/v1/pets'),
      await t.http().get('/health/live'),
      await t.http().get('/v1/openapi.json'),
    ]) {
      const security = Object.fromEntries(
        Object.entries(response.headers).filter(([name]) => SECURITY_HEADER_NAMES.test(name)),
      );
      expect(security).toEqual({
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'cross-origin-resource-policy': 'same-origin',
        'cache-control': 'no-store',
      });
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("sends helmet's full set, with the CSP Swagger UI needs, on the documentation page only", async () => {
    const page = await t.http().get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers).toMatchObject({
      'content-security-policy':
        "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'none';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' 'unsafe-inline'",
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
    });
    expect(page.headers).not.toHaveProperty('strict-transport-security'); // production only
  });

  it('sends none of them with SECURITY_HEADERS=off, for a gateway that adds its own', async () => {
    const bare = await startTestApp({ env: { SECURITY_HEADERS: 'off' } });
    try {
      for (const response of [await bare.http().get('/v1/pets').set(AUTH), await bare.http().get('/docs')]) {
        expect(Object.keys(response.headers).filter((name) => SECURITY_HEADER_NAMES.test(name))).toEqual([]);
        expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      }
    } finally {
      await bare.close();
    }
  });

  it('adds HSTS in production', async () => {
    const production = await startTestApp({ env: { NODE_ENV: 'production' } });
    try {
      const response = await production.http().get('/v1/pets').set(AUTH);
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect((await production.http().get('/docs')).headers['strict-transport-security']).toBe(
        'max-age=31536000; includeSubDomains',
      );
    } finally {
      await production.close();
    }
  });

  it('returns a sane X-Request-Id and replaces any other', async () => {
    const kept = await t.http().get('/v1/pets').set(AUTH).set('x-request-id', 'trace-42.a:b');
    expect(kept.headers['x-request-id']).toBe('trace-42.a:b');
    const replaced = await t.http().get('/v1/pets').set(AUTH).set('x-request-id', 'x'.repeat(200));
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends no CORS headers when CORS_ORIGINS is unset', async () => {
    const response = await t.http().get('/v1/pets').set(AUTH).set('origin', 'https://app.example.com');
    expect(response.headers).not.toHaveProperty('access-control-allow-origin');
  });

  it('allows the configured origins only, and answers their preflight without a key', async () => {
    const cors = await startTestApp({ env: { CORS_ORIGINS: 'https://app.example.com' } });
    try {
      const preflight = await cors
        .http()
        .options('/v1/pets')
        .set('origin', 'https://app.example.com')
        .set('access-control-request-method', 'POST')
        .set('access-control-request-headers', 'authorization,content-type');
      expect(preflight.status).toBe(204);
      expect(preflight.headers).toMatchObject({
        'access-control-allow-origin': 'https://app.example.com',
        'access-control-allow-methods': await servedMethods(cors),
        'access-control-allow-headers': 'Authorization, Content-Type, X-Request-Id, Idempotency-Key',
        'access-control-max-age': '600',
      });
      const allowed = await cors.http().get('/v1/pets').set(AUTH).set('origin', 'https://app.example.com');
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
      // The core's own, and those idempotency and rate limiting registered.
      expect(allowed.headers['access-control-expose-headers'].split(', ').sort()).toEqual([
        'Deprecation',
        'Idempotent-Replayed',
        'Link',
        'Location',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'Retry-After',
        'Sunset',
        'WWW-Authenticate',
        'X-Request-Id',
      ]);
      const other = await cors.http().get('/v1/pets').set(AUTH).set('origin', 'https://evil.example.com');
      expect(other.headers).not.toHaveProperty('access-control-allow-origin');
    } finally {
      await cors.close();
    }
  });

  it('sets the server timeouts from the configuration', async () => {
    const timed = await startTestApp({
      env: { HEADERS_TIMEOUT_MS: '4000', REQUEST_TIMEOUT_MS: '9000', KEEP_ALIVE_TIMEOUT_MS: '7000' },
    });
    try {
      const server = timed.app.getHttpServer();
      expect({
        headers: server.headersTimeout,
        request: server.requestTimeout,
        keepAlive: server.keepAliveTimeout,
      }).toEqual({ headers: 4000, request: 9000, keepAlive: 7000 });
    } finally {
      await timed.close();
    }
  });
});

describe('rate limiting', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } })));
  afterAll(() => t?.close());

  it('limits each key per minute with RateLimit headers, then answers 429 with Retry-After', async () => {
    for (let i = 0; i < 3; i++) {
      const response = await t.http().get('/v1/pets').set(AUTH);
      expect(response.status).toBe(200);
      expect(response.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': String(2 - i) });
      expect(Number(response.headers['ratelimit-reset'])).toBeGreaterThan(0);
    }
    const limited = await t.http().post('/v1/pets').set(AUTH).send({ name: 'Rex', categoryId: 1 });
    expect(limited.status).toBe(429);
    expect(limited.headers['content-type']).toBe(JSON_CONTENT_TYPE);
    expect(limited.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': '0' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['ratelimit-reset']).toBe(limited.headers['retry-after']);
    expect(limited.body).toEqual(
      errorBody(
        429,
        'rate_limited',
        `rate limit of 3 requests per minute exceeded; retry in ${limited.headers['retry-after']} s`,
      ),
    );
    // Nothing was stored by the refused request.
    const other = await t.http().get('/v1/pets').set('authorization', `Bearer ${OTHER_API_KEY}`);
    expect(other.status).toBe(200);
    expect(other.body).toEqual([]);
  });

  it('counts another key separately', async () => {
    const response = await t.http().get('/v1/pets').set('authorization', `Bearer ${OTHER_API_KEY}`);
    expect(response.status).toBe(200);
    expect(response.headers['ratelimit-remaining']).toBe('1');
  });

  it('does not limit health, metrics or the contract document', async () => {
    for (let i = 0; i < 5; i++) {
      for (const path of ['/health/live', '/health/ready', '/metrics', '/v1/openapi.json']) {
        const response = await t.http().get(path);
        expect(response.status).toBe(200);
        expect(response.headers).not.toHaveProperty('ratelimit-limit');
      }
    }
  });

  it('is off with RATE_LIMIT_PER_MINUTE=0', async () => {
    const unlimited = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    try {
      for (let i = 0; i < 10; i++) {
        const response = await unlimited.http().get('/v1/pets').set(AUTH);
        expect(response.status).toBe(200);
        expect(response.headers).not.toHaveProperty('ratelimit-limit');
      }
    } finally {
      await unlimited.close();
    }
  });
});
