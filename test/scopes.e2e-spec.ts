import { Controller, Get, Module } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Scoped } from '@app/auth';
import { ConfigError } from '@app/platform';
import { errorBody, JSON_CONTENT_TYPE, startTestApp, TEST_API_KEY, type TestApp } from './support/test-app';

interface Operation {
  method: string;
  path: string;
  scope: string;
}

/** Every operation of the document the service serves, with the scope it states (`x-scope`). */
async function documentedOperations(): Promise<Operation[]> {
  const probe = await startTestApp();
  try {
    const document = (await probe.http().get('/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { 'x-scope': string }>>;
    };
    return Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ method, path, scope: operation['x-scope'] })),
    );
  } finally {
    await probe.close();
  }
}

/** The key of API_KEYS the test gives each grant, by the grant's name (`pets-read`, `store-all`, `any-write`). */
const keyOf = (name: string) => `scoped-key-${name}-0123456789`;

/**
 * The bearer guard, for every operation the OpenAPI document lists (read from it, so that a new module's routes are
 * covered): a key with exactly its scope gets through (whatever the request then is answered), a key with another
 * gets 403 `insufficient_scope` with RFC 6750's header, and wildcards grant what they say.
 */
describe('scopes: the bearer guard on every operation of the document', () => {
  let t: TestApp;
  let operations: Operation[];
  let areas: string[];

  beforeAll(async () => {
    operations = await documentedOperations();
    areas = [...new Set(operations.map(({ scope }) => scope.split(':')[0]))].sort();
    const grants: Record<string, string> = { 'any-read': '*:read', 'any-write': '*:write', every: '*' };
    // Each scope an operation needs (a read-only area, as a read model's, has no write scope to grant), and each area's all.
    for (const { scope } of operations) grants[scope.replace(':', '-')] = scope;
    for (const area of areas) grants[`${area}-all`] = `${area}:*`;
    const apiKeys = Object.entries(grants).map(([name, granted]) => `${name}:${keyOf(name)}:${granted}`);
    t = await startTestApp({
      env: { API_KEYS: [`e2e:${TEST_API_KEY}`, ...apiKeys].join(','), AUTH_FAILURES_PER_MINUTE: '3' },
    });
  });
  afterAll(() => t?.close());

  /** The operation called with `key`: its path's parameters an id no record has, a POST's body `{}`. */
  const call = ({ method, path }: Operation, key: string) => {
    const request = t
      .http()
      [method as 'get' | 'post' | 'delete'](`/v1${path.replace(/\{[^}]+\}/g, '1')}`)
      .set('authorization', `Bearer ${key}`);
    return method === 'post' ? request.send({}) : request;
  };

  const refused = (scope: string) => ({
    status: 403,
    type: JSON_CONTENT_TYPE,
    challenge: `Bearer realm="petstore", error="insufficient_scope", scope="${scope}"`,
    body: errorBody(403, 'insufficient_scope', `the API key does not grant the scope this operation needs: ${scope}`),
  });
  const answer = (response: { status: number; headers: Record<string, string>; body: unknown }) => ({
    status: response.status,
    type: response.headers['content-type'],
    challenge: response.headers['www-authenticate'],
    body: response.body,
  });

  it("reads every operation from the document, each with its area's read scope for a GET and write otherwise", () => {
    expect(areas).toEqual(expect.arrayContaining(['pets', 'store']));
    for (const { method, path, scope } of operations) {
      expect([method, path, scope]).toEqual([
        method,
        path,
        expect.stringMatching(method === 'get' ? /:read$/ : /:write$/),
      ]);
    }
  });

  it('lets a key with exactly the scope through, and answers a key of any other 403 insufficient_scope', async () => {
    const exact = [...new Set(operations.map(({ scope }) => scope.replace(':', '-')))];
    for (const operation of operations) {
      const mine = operation.scope.replace(':', '-');
      const through = await call(operation, keyOf(mine));
      expect([operation, through.status, through.headers['www-authenticate']]).not.toEqual(
        expect.arrayContaining([403]),
      );
      for (const other of exact.filter((name) => name !== mine)) {
        expect([operation, other, answer(await call(operation, keyOf(other)))]).toEqual([
          operation,
          other,
          refused(operation.scope),
        ]);
      }
    }
  });

  it('grants by wildcard: <area>:*, *:<access> and *, and by nothing else', async () => {
    for (const operation of operations) {
      const [area, access] = operation.scope.split(':');
      for (const name of [`${area}-all`, `any-${access}`, 'every']) {
        expect([operation, name, (await call(operation, keyOf(name))).status]).not.toEqual([operation, name, 403]);
      }
      const others = [...areas.filter((other) => other !== area).map((other) => `${other}-all`)];
      others.push(access === 'read' ? 'any-write' : 'any-read');
      for (const name of others) {
        expect([operation, name, answer(await call(operation, keyOf(name)))]).toEqual([
          operation,
          name,
          refused(operation.scope),
        ]);
      }
    }
  });

  it('leaves 401s, public routes and the failed-authentication limit as they were, and counts 403s by route and key', async () => {
    expect(answer(await t.http().get('/v1/pets'))).toEqual({
      status: 401,
      type: JSON_CONTENT_TYPE,
      challenge: 'Bearer realm="petstore"',
      body: errorBody(401, 'missing_api_key', 'an API key is required: send Authorization: Bearer <key>'),
    });
    // A refused scope is no failed authentication: ten of them leave the limit of three failures a minute untouched.
    for (let n = 0; n < 10; n++) {
      const refusal = await t
        .http()
        .get('/v1/store/inventory')
        .set('authorization', `Bearer ${keyOf('pets-read')}`);
      expect(refusal.status).toBe(403);
    }
    const invalid = await t.http().get('/v1/pets').set('authorization', 'Bearer not-a-key-of-this-service');
    expect(invalid.status).toBe(401);
    const restricted = { authorization: `Bearer ${keyOf('pets-read')}` };
    expect((await t.http().get('/health/live').set(restricted)).status).toBe(200);
    expect((await t.http().get('/v1/openapi.json').set(restricted)).status).toBe(200);
    const metrics = (await t.http().get('/metrics')).text;
    const counted =
      /^petstore_insufficient_scope_total\{route="\/v1\/store\/inventory",caller="pets-read"\} (\d+)$/m.exec(metrics);
    expect(Number(counted?.[1])).toBeGreaterThanOrEqual(10);
  });
});

/** An area whose routes only read: `reports:write` is a scope no operation needs. */
@Controller('reports')
@Scoped('reports')
class ReportsController {
  @Get()
  list(): string[] {
    return [];
  }
}

@Module({ controllers: [ReportsController] })
class ReportsModule {}

describe('scopes of API_KEYS', () => {
  it('refuses at start a scope that no operation needs, naming the scopes there are', async () => {
    const scopes = [...new Set((await documentedOperations()).map(({ scope }) => scope))].sort();
    await expect(startTestApp({ env: { API_KEYS: `typo:${keyOf('pets-read')}:pet:read` } })).rejects.toThrow(
      new ConfigError(
        'API_KEYS',
        `the key named typo: "pet:read" grants no operation of this service; its scopes are ${scopes.join(', ')}`,
      ),
    );
  });

  it('refuses the write scope of an area whose routes only read, and starts with its read scope', async () => {
    const refused = startTestApp({
      features: [ReportsModule],
      env: { API_KEYS: `reports:${keyOf('pets-read')}:reports:write` },
    });
    const error = (await refused.then(
      () => undefined,
      (refusal: unknown) => refusal,
    )) as ConfigError;
    const prefix =
      'API_KEYS the key named reports: "reports:write" grants no operation of this service; its scopes are ';
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message.startsWith(prefix)).toBe(true);
    const named = error.message.slice(prefix.length).split(', ');
    expect(named).toContain('reports:read');
    expect(named).not.toContain('reports:write');
    const served = await startTestApp({
      features: [ReportsModule],
      env: { API_KEYS: `reports:${keyOf('pets-read')}:reports:read` },
    });
    // It starts: the read scope is one an operation needs.
    await served.close();
  });
});
