import { describe, expect, it } from 'vitest';
import { expectRefusalNaming } from '@test/support/config-errors';
import { Settings } from '@app/platform';
import { AuthSettings } from './auth.settings';

const KEY = 'k'.repeat(16);
const of = (env: Record<string, string>) => AuthSettings.of(new Settings(env));

describe('AuthSettings', () => {
  it('defaults the key cache, the stale period and the failed-authentication limit; no key without API_KEYS', () => {
    expect({ ...of({}) }).toEqual({ apiKeys: [], cacheSeconds: 10, staleSeconds: 60, failuresPerMinute: 60 });
  });

  it('reads every variable', () => {
    expect({
      ...of({
        API_KEYS: ` ci:${KEY} ,, ${'b'.repeat(20)} `,
        API_KEY_CACHE_SECONDS: '5',
        API_KEY_STALE_SECONDS: '30',
        AUTH_FAILURES_PER_MINUTE: '0',
      }),
    }).toEqual({
      apiKeys: [
        { name: 'ci', key: KEY, scopes: ['*'] },
        { name: 'API_KEYS#2', key: 'b'.repeat(20), scopes: ['*'] },
      ],
      cacheSeconds: 5,
      staleSeconds: 30,
      failuresPerMinute: 0,
    });
  });

  it.each([
    [{ API_KEYS: 'short' }, 'API_KEYS'],
    [{ API_KEY_CACHE_SECONDS: '0' }, 'API_KEY_CACHE_SECONDS'],
    [{ API_KEY_CACHE_SECONDS: '31' }, 'API_KEY_CACHE_SECONDS'],
    [{ API_KEY_STALE_SECONDS: '10' }, 'API_KEY_STALE_SECONDS'],
    [{ API_KEY_STALE_SECONDS: '3601' }, 'API_KEY_STALE_SECONDS'],
    [{ AUTH_FAILURES_PER_MINUTE: '-5' }, 'AUTH_FAILURES_PER_MINUTE'],
  ])('refuses %j, naming %s', (env, variable) => {
    expectRefusalNaming(() => of(env), variable);
  });
});
