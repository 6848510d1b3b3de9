import { describe, expect, it } from 'vitest';
import { expectRefusalNaming } from '@test/support/config-errors';
import { ConfigError, Settings } from '@app/platform';
import { RateLimitSettings } from './rate-limit.settings';

const of = (env: Record<string, string>) => RateLimitSettings.of(new Settings(env));

describe('RateLimitSettings', () => {
  it('defaults to 3,000 a minute, counted in this process', () => {
    expect({ ...of({}) }).toEqual({ perMinute: 3_000, redis: undefined });
  });

  it('reads every variable', () => {
    expect({
      ...of({
        RATE_LIMIT_PER_MINUTE: '0',
        REDIS_URL: 'redis://:secret@cache.internal:6380/2',
        REDIS_KEY_PREFIX: 'petstore-eu:',
      }),
    }).toEqual({
      perMinute: 0,
      redis: { url: 'redis://:secret@cache.internal:6380/2', keyPrefix: 'petstore-eu:' },
    });
  });

  it.each([
    [{ RATE_LIMIT_PER_MINUTE: 'many' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL'],
    [{ REDIS_URL: 'cache:6379' }, 'REDIS_URL'],
    [{ REDIS_KEY_PREFIX: 'orphan:' }, 'REDIS_KEY_PREFIX'],
    [{ REDIS_URL: 'redis://cache:6379', REDIS_KEY_PREFIX: 'has space' }, 'REDIS_KEY_PREFIX'],
  ])('refuses %j, naming %s', (env, variable) => {
    expectRefusalNaming(() => of(env), variable);
  });

  it('never echoes a Redis URL, which may hold a password', () => {
    expect(() => of({ REDIS_URL: 'http://:hunter2@cache' })).toThrow(
      new ConfigError('REDIS_URL', 'must be a redis://host:port or rediss://host:port URL'),
    );
  });
});
