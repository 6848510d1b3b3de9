import { describe, expect, it } from 'vitest';
import { expectRefusalNaming } from '@test/support/config-errors';
import { AppConfig } from './app-config';
import { Settings } from './settings';

describe('AppConfig.fromEnvironment', () => {
  it('has the documented defaults', () => {
    const config = AppConfig.fromEnvironment({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      host: '127.0.0.1',
      port: 3000,
      publicBaseUrl: undefined,
      logLevel: 'info',
      shutdownGraceMs: 10_000,
      shutdownDelayMs: { SIGTERM: 0, SIGINT: 0 },
      servers: { production: undefined, staging: undefined },
      timeouts: { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 65_000 },
    });
  });

  it.each([
    ['development', {}, { SIGTERM: 0, SIGINT: 0 }],
    ['test', {}, { SIGTERM: 0, SIGINT: 0 }],
    // Behind a balancer by default: SIGTERM waits for it; Ctrl-C at a terminal still stops at once.
    ['production', {}, { SIGTERM: 5000, SIGINT: 0 }],
    ['production', { SHUTDOWN_DELAY_MS: '0' }, { SIGTERM: 0, SIGINT: 0 }],
    ['development', { SHUTDOWN_DELAY_MS: '3000' }, { SIGTERM: 3000, SIGINT: 3000 }],
  ])('delays a shutdown in %s with %j by %j', (nodeEnv, env, delays) => {
    expect(AppConfig.fromEnvironment({ NODE_ENV: nodeEnv, ...env }).shutdownDelayMs).toEqual(delays);
  });

  it('names the production default when SHUTDOWN_GRACE_MS leaves no room for it', () => {
    expect(() => AppConfig.fromEnvironment({ NODE_ENV: 'production', SHUTDOWN_GRACE_MS: '4000' })).toThrow(
      'SHUTDOWN_DELAY_MS must be shorter than SHUTDOWN_GRACE_MS (5000 >= 4000: the default in production)',
    );
  });

  it('reads every variable', () => {
    const config = AppConfig.fromEnvironment({
      NODE_ENV: 'production',
      HOST: '0.0.0.0',
      PORT: '8080',
      PUBLIC_BASE_URL: 'https://api.example.com/petstore/v1/',
      LOG_LEVEL: 'warn',
      SHUTDOWN_GRACE_MS: '2500',
      SHUTDOWN_DELAY_MS: '1500',
      STAGING_BASE_URL: 'https://staging.example.com/v1',
      HEADERS_TIMEOUT_MS: '5000',
      REQUEST_TIMEOUT_MS: '20000',
      KEEP_ALIVE_TIMEOUT_MS: '61000',
      TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,loopback',
      METRICS: 'off',
    });
    expect({ ...config }).toEqual({
      nodeEnv: 'production',
      host: '0.0.0.0',
      port: 8080,
      publicBaseUrl: 'https://api.example.com/petstore/v1',
      logLevel: 'warn',
      shutdownGraceMs: 2500,
      shutdownDelayMs: { SIGTERM: 1500, SIGINT: 1500 },
      servers: { production: 'https://api.example.com/petstore/v1', staging: 'https://staging.example.com/v1' },
      timeouts: { headersMs: 5000, requestMs: 20000, keepAliveMs: 61000 },
      trustProxy: ['10.0.0.0/8', '192.168.1.7', 'loopback'],
      metrics: false,
      settings: expect.any(Settings),
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
    [{ PUBLIC_BASE_URL: 'api.example.com/v1' }, 'PUBLIC_BASE_URL'],
    [{ PUBLIC_BASE_URL: 'ftp://api.example.com/v1' }, 'PUBLIC_BASE_URL'],
    [{ PUBLIC_BASE_URL: 'https://api.example.com/v1?x=1' }, 'PUBLIC_BASE_URL'],
    [{ STAGING_BASE_URL: 'https://staging.example.com/' }, 'STAGING_BASE_URL'],
    [{ PRODUCTION_BASE_URL: 'nope' }, 'PRODUCTION_BASE_URL'],
    [{ HEADERS_TIMEOUT_MS: '0' }, 'HEADERS_TIMEOUT_MS'],
    [{ HEADERS_TIMEOUT_MS: '40000', REQUEST_TIMEOUT_MS: '30000' }, 'HEADERS_TIMEOUT_MS'],
    [{ KEEP_ALIVE_TIMEOUT_MS: '-1' }, 'KEEP_ALIVE_TIMEOUT_MS'],
    [{ SHUTDOWN_DELAY_MS: '20000', SHUTDOWN_GRACE_MS: '10000' }, 'SHUTDOWN_DELAY_MS'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1,proxy.internal' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '101' }, 'TRUST_PROXY'],
    [{ METRICS: 'false' }, 'METRICS'],
  ])('refuses %j, naming %s', (env, variable) => {
    expectRefusalNaming(() => AppConfig.fromEnvironment(env), variable);
  });

  it.each([
    [undefined, false],
    ['false', false],
    ['0', false],
    ['true', true],
    ['2', 2],
    ['::1, fd00::/8', ['::1', 'fd00::/8']],
  ])('reads TRUST_PROXY=%j as %j', (value, expected) => {
    expect(AppConfig.fromEnvironment({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('defaults metrics to on', () => {
    const config = AppConfig.fromEnvironment({});
    expect(config.metrics).toBe(true);
  });

  it("knows no library's variables, but keeps them for the libraries to read", () => {
    const config = AppConfig.fromEnvironment({ DATABASE_URL: 'mongodb://x', RATE_LIMIT_PER_MINUTE: 'many' });
    expect(config.settings.text('DATABASE_URL')).toBe('mongodb://x');
  });
});
