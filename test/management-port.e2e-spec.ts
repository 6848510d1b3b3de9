import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http-client';
import { freePort, startService, type ServiceProcess } from './support/service-process';
import { JSON_CONTENT_TYPE, RELEASE, TEST_API_KEY, errorBody } from './support/test-app';
import { waitFor } from './support/wait-for';

/**
 * MANAGEMENT_PORT: health checks and metrics on a port of their own, and off
 * the port clients reach; the built service as a process, on real ports.
 */
describe('MANAGEMENT_PORT', () => {
  let folder: string;
  let api: string;
  let management: string;
  let service: ServiceProcess;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'petstore-management-'));
    const port = await freePort();
    management = `http://127.0.0.1:${port}`;
    service = await startService({
      API_KEYS: TEST_API_KEY,
      DATABASE_URL: `sqlite:${join(folder, 'petstore.sqlite')}`,
      MANAGEMENT_PORT: String(port),
      SHUTDOWN_DELAY_MS: '3000',
      SHUTDOWN_GRACE_MS: '8000',
    });
    api = service.baseUrl;
  });
  afterAll(async () => {
    service?.child.kill('SIGKILL');
    await service?.exited;
    rmSync(folder, { recursive: true, force: true });
  });

  const unknown = (path: string) => errorBody(404, 'route_not_found', `no route for GET ${path}`);

  it('serves liveness, readiness and metrics there, without a key', async () => {
    const live = await call(management, 'GET', '/health/live', undefined, '');
    expect([live.status, live.headers.get('content-type'), live.body]).toEqual([
      200,
      JSON_CONTENT_TYPE,
      { status: 'ok', version: RELEASE },
    ]);
    const ready = await call(management, 'GET', '/health/ready', undefined, '');
    const database = { status: 'up', responseTime: expect.any(Number) };
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ok',
      info: { database },
      error: {},
      details: { database },
      version: RELEASE,
    });
    const metrics = await fetch(`${management}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await metrics.text()).toContain(`petstore_build_info{version="${RELEASE}"} 1`);
  });

  it('answers them 404 route_not_found on the API port, as any unknown route, without asking for a key', async () => {
    for (const path of ['/health/live', '/health/ready', '/metrics']) {
      const response = await call(api, 'GET', path, undefined, '');
      expect([response.status, response.headers.get('www-authenticate'), response.body]).toEqual([
        404,
        null,
        unknown(path),
      ]);
    }
  });

  it('serves the API on the API port alone', async () => {
    expect((await call(api, 'GET', '/v1/pets')).status).toBe(200);
    for (const path of ['/v1/pets', '/v1/openapi.json', '/docs']) {
      const response = await call(management, 'GET', path);
      expect([response.status, response.body]).toEqual([404, unknown(path)]);
    }
  });

  it('keeps answering readiness there while a shutdown drains, 503 shutting_down, then exits 0', async () => {
    service.child.kill('SIGTERM');
    await waitFor(
      async () => (await call(management, 'GET', '/health/ready', undefined, '')).status === 503,
      'readiness 503 on the management port',
    );
    const ready = await fetch(`${management}/health/ready`);
    expect(ready.headers.get('retry-after')).toBe('2');
    expect(await ready.json()).toEqual(errorBody(503, 'shutting_down', 'the service is shutting down'));
    expect((await call(api, 'GET', '/v1/pets')).status).toBe(200);
    expect(await service.exited).toBe(0);
  });
});
