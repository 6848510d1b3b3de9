import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { LoggerService, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DatabaseSettings } from '@app/database';
import { AppConfig, createHttpApplication } from '@app/platform';
import request from 'supertest';
import { AppModule } from '../../apps/petstore/src/app.module';
import { ContractRecorder } from './contract';
import { sqlite, type DatabaseKind, type TestDatabase } from './databases';
import { inEnvironment } from './environment';

export const TEST_API_KEY = 'e2e-test-key-0123456789abcdef';
export const OTHER_API_KEY = 'e2e-other-key-abcdef0123456789';
export const AUTH = { authorization: `Bearer ${TEST_API_KEY}` } as const;

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  database: TestDatabase;
  /** Where the database is, as the service reads DATABASE_URL. */
  location: DatabaseSettings['location'];
  /** supertest bound to the listening server. */
  http: () => ReturnType<typeof request>;
  close(): Promise<void>;
}

/**
 * The real application (same module, same HTTP factory as `main.ts`) on a
 * fresh database, listening on an ephemeral port of 127.0.0.1. Closing it
 * fails if any response it gave does not fit the OpenAPI document it serves.
 */
export async function startTestApp(
  options: {
    kind?: DatabaseKind;
    env?: Record<string, string>;
    logger?: LoggerService;
    /** Modules of the test's own, served beside the service's (their routes under `/v1` too). */
    features?: readonly Type[];
  } = {},
): Promise<TestApp> {
  const database = await (options.kind ?? sqlite).create();
  const env = {
    NODE_ENV: 'test',
    // One named key, one known by its place: API_KEYS's two forms.
    API_KEYS: `e2e:${TEST_API_KEY},${OTHER_API_KEY}`,
    DATABASE_URL: database.url,
    PORT: '0',
    LOG_LEVEL: 'silent',
    // Suites send many 401s from one address; test/auth-limits.e2e-spec.ts tests the limit itself.
    AUTH_FAILURES_PER_MINUTE: '0',
    ...options.env,
  };
  const contract = new ContractRecorder();
  const app = await inEnvironment(env, async () => {
    const created = await createHttpApplication(
      options.features ? AppModule.withFeatures(...options.features) : AppModule,
      options.logger ? { logger: options.logger } : {},
    );
    contract.attach(created.getHttpAdapter().getInstance());
    await created.listen(0, '127.0.0.1');
    return created;
  });
  const config = app.get(AppConfig);
  const server = app.getHttpServer();
  return {
    app,
    config,
    database,
    location: app.get(DatabaseSettings).location,
    http: () => request(server),
    async close() {
      try {
        const document = await request(server).get('/v1/openapi.json');
        const problems = contract.check(document.body);
        if (problems.length > 0) throw new Error(`responses that break the OpenAPI document:\n${problems.join('\n')}`);
      } finally {
        await app.close();
        await database.drop();
      }
    },
  };
}

/** A key's SHA-256 in the encodings a label could take: none may show in a log line or a metric. */
export function digestsOf(key: string): string[] {
  const digest = createHash('sha256').update(key).digest();
  return [digest.toString('hex'), digest.toString('base64'), digest.toString('base64url')];
}

/** The Error body the contract prescribes. */
export function errorBody(status: number, code: string, message: string | RegExp) {
  return { status, code, message };
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The release every instance reports in /health and petstore_build_info: the project's version. */
export const RELEASE = (
  JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8')) as { version: string }
).version;

/**
 * The methods the whole service serves, as `Allow` lists them (alphabetical, `, `): those of every operation its
 * document lists, and GET and HEAD (health checks, the document itself). Read from the document, so that a module that
 * adds a method changes what a test expects with it.
 */
export async function servedMethods(t: TestApp): Promise<string> {
  const document = (await t.http().get('/v1/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
  const methods = new Set(['GET', 'HEAD']);
  for (const operations of Object.values(document.paths)) {
    for (const method of Object.keys(operations)) {
      if (['get', 'put', 'post', 'delete', 'patch'].includes(method)) methods.add(method.toUpperCase());
    }
  }
  return [...methods].sort().join(', ');
}
