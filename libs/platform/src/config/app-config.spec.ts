import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppConfig } from './app-config';
import { ConfigError } from './config.error';
import { openFileLimit } from './open-file-limit';

describe('AppConfig.fromEnvironment', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'petstore-config-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  const base = () => ({ DATABASE_URL: `sqlite:${folder}/db/petstore.sqlite`, API_KEYS: 'k'.repeat(16) });

  it('has the documented defaults', () => {
    const config = AppConfig.fromEnvironment({ API_KEYS: 'k'.repeat(16), DATABASE_URL: `sqlite:${folder}/x.sqlite` });
    expect(config).toMatchObject({
      nodeEnv: 'development',
      host: '127.0.0.1',
      port: 3000,
      publicBaseUrl: undefined,
      logLevel: 'info',
      shutdownGraceMs: 10_000,
      shutdownDelayMs: { SIGTERM: 0, SIGINT: 0 },
      servers: { production: undefined, staging: undefined },
      rateLimitPerMinute: 3000,
      corsOrigins: [],
      timeouts: { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 65_000 },
      apiKeys: ['k'.repeat(16)],
    });
    // The open-file limit less 64, at most 10,000 (1,000 where the limit is unknown).
    const limit = openFileLimit();
    expect(config.maxConnections).toBe(limit === undefined ? 1_000 : Math.min(10_000, limit - 64));
  });

  it.each([
    ['development', {}, { SIGTERM: 0, SIGINT: 0 }],
    ['test', {}, { SIGTERM: 0, SIGINT: 0 }],
    // Behind a balancer by default: SIGTERM waits for it; Ctrl-C at a terminal still stops at once.
    ['production', {}, { SIGTERM: 5000, SIGINT: 0 }],
    ['production', { SHUTDOWN_DELAY_MS: '0' }, { SIGTERM: 0, SIGINT: 0 }],
    ['development', { SHUTDOWN_DELAY_MS: '3000' }, { SIGTERM: 3000, SIGINT: 3000 }],
  ])('delays a shutdown in %s with %j by %j', (nodeEnv, env, delays) => {
    expect(AppConfig.fromEnvironment({ ...base(), NODE_ENV: nodeEnv, ...env }).shutdownDelayMs).toEqual(delays);
  });

  it('names the production default when SHUTDOWN_GRACE_MS leaves no room for it', () => {
    expect(() => AppConfig.fromEnvironment({ ...base(), NODE_ENV: 'production', SHUTDOWN_GRACE_MS: '4000' })).toThrow(
      'SHUTDOWN_DELAY_MS must be shorter than SHUTDOWN_GRACE_MS (5000 >= 4000: the default in production)',
    );
  });

  it('defaults DATABASE_URL to ./data/petstore.sqlite', () => {
    const cwd = process.cwd();
    process.chdir(folder);
    try {
      const config = AppConfig.fromEnvironment({ API_KEYS: 'k'.repeat(16) });
      expect(config.database).toEqual({ type: 'sqlite', path: join(folder, 'data', 'petstore.sqlite') });
      expect(statSync(join(folder, 'data')).isDirectory()).toBe(true);
    } finally {
      process.chdir(cwd);
    }
  });

  it('reads every variable', () => {
    const config = AppConfig.fromEnvironment({
      NODE_ENV: 'production',
      HOST: '0.0.0.0',
      PORT: '8080',
      MANAGEMENT_PORT: '9090',
      API_KEYS: ` ${'a'.repeat(16)} ,, ${'b'.repeat(20)} `,
      DATABASE_URL: 'postgres://pets@db.internal:5432/pets',
      PUBLIC_BASE_URL: 'https://api.example.com/petstore/v1/',
      LOG_LEVEL: 'warn',
      SHUTDOWN_GRACE_MS: '2500',
      SHUTDOWN_DELAY_MS: '1500',
      STAGING_BASE_URL: 'https://staging.example.com/v1',
      RATE_LIMIT_PER_MINUTE: '0',
      CORS_ORIGINS: 'https://app.example.com, http://localhost:5173',
      HEADERS_TIMEOUT_MS: '5000',
      REQUEST_TIMEOUT_MS: '20000',
      KEEP_ALIVE_TIMEOUT_MS: '61000',
      DATABASE_TIMEOUT_MS: '750',
      MAX_CONNECTIONS: '500',
      IDEMPOTENCY_TTL_HOURS: '48',
      API_KEY_CACHE_SECONDS: '5',
      API_KEY_STALE_SECONDS: '30',
      AUTH_FAILURES_PER_MINUTE: '0',
      REDIS_URL: 'redis://:secret@cache.internal:6380/2',
      REDIS_KEY_PREFIX: 'petstore-eu:',
      TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,loopback',
      METRICS: 'off',
      SECURITY_HEADERS: 'off',
    });
    expect({ ...config }).toEqual({
      nodeEnv: 'production',
      host: '0.0.0.0',
      port: 8080,
      // MANAGEMENT_HOST defaults to HOST.
      management: { host: '0.0.0.0', port: 9090 },
      apiKeys: ['a'.repeat(16), 'b'.repeat(20)],
      database: { type: 'postgres', url: 'postgres://pets@db.internal:5432/pets' },
      databaseTimeoutMs: 750,
      publicBaseUrl: 'https://api.example.com/petstore/v1',
      logLevel: 'warn',
      shutdownGraceMs: 2500,
      shutdownDelayMs: { SIGTERM: 1500, SIGINT: 1500 },
      servers: { production: 'https://api.example.com/petstore/v1', staging: 'https://staging.example.com/v1' },
      rateLimitPerMinute: 0,
      corsOrigins: ['https://app.example.com', 'http://localhost:5173'],
      timeouts: { headersMs: 5000, requestMs: 20000, keepAliveMs: 61000 },
      maxConnections: 500,
      idempotencyTtlHours: 48,
      apiKeyCacheSeconds: 5,
      apiKeyStaleSeconds: 30,
      authFailuresPerMinute: 0,
      redis: { url: 'redis://:secret@cache.internal:6380/2', keyPrefix: 'petstore-eu:' },
      trustProxy: ['10.0.0.0/8', '192.168.1.7', 'loopback'],
      metrics: false,
      securityHeaders: false,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it.each([
    [{ PORT: '3.5' }, 'PORT'],
    [{ PORT: '-1' }, 'PORT'],
    [{ HOST: '', PORT: 'x' }, 'PORT'],
    [{ NODE_ENV: 'prod' }, 'NODE_ENV'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL'],
    [{ SHUTDOWN_GRACE_MS: '1e3' }, 'SHUTDOWN_GRACE_MS'],
    [{ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'mongodb://x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: './petstore.sqlite' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://user:password@db.internal:5432' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgresql://db.internal/' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://db.internal:5432/?sslmode=require' }, 'DATABASE_URL'],
    [{ PUBLIC_BASE_URL: 'api.example.com/v1' }, 'PUBLIC_BASE_URL'],
    [{ PUBLIC_BASE_URL: 'ftp://api.example.com/v1' }, 'PUBLIC_BASE_URL'],
    [{ PUBLIC_BASE_URL: 'https://api.example.com/v1?x=1' }, 'PUBLIC_BASE_URL'],
    [{ STAGING_BASE_URL: 'https://staging.example.com/' }, 'STAGING_BASE_URL'],
    [{ MANAGEMENT_PORT: '90a' }, 'MANAGEMENT_PORT'],
    [{ PORT: '8080', MANAGEMENT_PORT: '8080' }, 'MANAGEMENT_PORT'],
    [{ MANAGEMENT_HOST: '10.0.0.5' }, 'MANAGEMENT_HOST'],
    [{ PRODUCTION_BASE_URL: 'nope' }, 'PRODUCTION_BASE_URL'],
    [{ RATE_LIMIT_PER_MINUTE: 'many' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ CORS_ORIGINS: 'https://app.example.com/path' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: '*,https://app.example.com' }, 'CORS_ORIGINS'],
    [{ HEADERS_TIMEOUT_MS: '0' }, 'HEADERS_TIMEOUT_MS'],
    [{ HEADERS_TIMEOUT_MS: '40000', REQUEST_TIMEOUT_MS: '30000' }, 'HEADERS_TIMEOUT_MS'],
    [{ KEEP_ALIVE_TIMEOUT_MS: '-1' }, 'KEEP_ALIVE_TIMEOUT_MS'],
    [{ DATABASE_TIMEOUT_MS: '10' }, 'DATABASE_TIMEOUT_MS'],
    [{ SHUTDOWN_DELAY_MS: '20000', SHUTDOWN_GRACE_MS: '10000' }, 'SHUTDOWN_DELAY_MS'],
    [{ MAX_CONNECTIONS: '8' }, 'MAX_CONNECTIONS'],
    [{ IDEMPOTENCY_TTL_HOURS: '0' }, 'IDEMPOTENCY_TTL_HOURS'],
    [{ MAX_CONNECTIONS: 'lots' }, 'MAX_CONNECTIONS'],
    [{ MAX_CONNECTIONS: '99999999' }, 'MAX_CONNECTIONS'],
    [{ API_KEY_CACHE_SECONDS: '0' }, 'API_KEY_CACHE_SECONDS'],
    [{ API_KEY_CACHE_SECONDS: '31' }, 'API_KEY_CACHE_SECONDS'],
    [{ API_KEY_STALE_SECONDS: '10' }, 'API_KEY_STALE_SECONDS'],
    [{ API_KEY_STALE_SECONDS: '3601' }, 'API_KEY_STALE_SECONDS'],
    [{ AUTH_FAILURES_PER_MINUTE: '-5' }, 'AUTH_FAILURES_PER_MINUTE'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL'],
    [{ REDIS_URL: 'cache:6379' }, 'REDIS_URL'],
    [{ REDIS_KEY_PREFIX: 'orphan:' }, 'REDIS_KEY_PREFIX'],
    [{ REDIS_URL: 'redis://cache:6379', REDIS_KEY_PREFIX: 'has space' }, 'REDIS_KEY_PREFIX'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1,proxy.internal' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '101' }, 'TRUST_PROXY'],
    [{ METRICS: 'false' }, 'METRICS'],
    [{ SECURITY_HEADERS: 'no' }, 'SECURITY_HEADERS'],
  ])('refuses %j, naming %s', (env, variable) => {
    const attempt = () => AppConfig.fromEnvironment({ ...base(), ...env });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(
      expect.objectContaining({ variable, message: expect.stringMatching(new RegExp(`^${variable} `)) }),
    );
  });

  it.each([
    [undefined, false],
    ['false', false],
    ['0', false],
    ['true', true],
    ['2', 2],
    ['::1, fd00::/8', ['::1', 'fd00::/8']],
  ])('reads TRUST_PROXY=%j as %j', (value, expected) => {
    expect(AppConfig.fromEnvironment({ ...base(), TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('defaults the key cache, the failed-authentication limit and Redis', () => {
    const config = AppConfig.fromEnvironment(base());
    expect([config.apiKeyCacheSeconds, config.apiKeyStaleSeconds, config.authFailuresPerMinute, config.redis]).toEqual([
      10,
      60,
      60,
      undefined,
    ]);
    expect([config.metrics, config.securityHeaders]).toEqual([true, true]);
  });

  it('never echoes a Redis URL, which may hold a password', () => {
    expect(() => AppConfig.fromEnvironment({ ...base(), REDIS_URL: 'http://:hunter2@cache' })).toThrow(
      'REDIS_URL must be a redis://host:port or rediss://host:port URL',
    );
  });

  it('refuses a database path that is a folder', () => {
    expect(() => AppConfig.fromEnvironment({ ...base(), DATABASE_URL: `sqlite:${folder}` })).toThrow(
      `DATABASE_URL points at ${folder}, which is not a file`,
    );
  });
});
