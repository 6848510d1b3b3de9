import { describe, expect, it } from 'vitest';
import { ConfigError, Settings } from '@app/platform';
import { IdempotencySettings } from './idempotency.settings';

const of = (env: Record<string, string>) => IdempotencySettings.of(new Settings(env));

describe('IdempotencySettings', () => {
  it('keeps answers 24 hours by default, IDEMPOTENCY_TTL_HOURS otherwise', () => {
    expect([of({}).ttlHours, of({ IDEMPOTENCY_TTL_HOURS: '48' }).ttlHours]).toEqual([24, 48]);
  });

  it.each(['0', '8761', '1.5'])('refuses IDEMPOTENCY_TTL_HOURS=%s, naming it', (value) => {
    expect(() => of({ IDEMPOTENCY_TTL_HOURS: value })).toThrow(
      new ConfigError('IDEMPOTENCY_TTL_HOURS', `must be an integer from 1 to 8760 (got "${value}")`),
    );
  });
});
