import { Settings } from '@app/platform';
import { AuthSettings } from '../config/auth.settings';
import type { RateLimitStorage } from '@app/rate-limit';
import { describe, expect, it } from 'vitest';
import { AuthFailureLimit } from './auth-failure-limit';
import { TooManyAuthFailuresError } from './auth.errors';

const LIMIT = 3;

/** A storage that counts nothing and blocks nobody: what a Redis that cannot be reached answers (it fails open). */
const FAILING_OPEN = {
  increment: async () => ({ totalHits: 0, timeToExpire: 0, isBlocked: false, timeToBlockExpire: 0 }),
} as unknown as RateLimitStorage;

describe('AuthFailureLimit, per connection', () => {
  const limit = () =>
    new AuthFailureLimit(AuthSettings.of(new Settings({ AUTH_FAILURES_PER_MINUTE: String(LIMIT) })), FAILING_OPEN);

  it("refuses a connection's failures past the limit when the address's count does not hold", async () => {
    const failures = limit();
    const connection = {};
    for (let n = 0; n < LIMIT; n++) expect(await failures.judge('203.0.113.7', connection)).toBeUndefined();
    expect(await failures.judge('203.0.113.7', connection)).toEqual(
      new TooManyAuthFailuresError(LIMIT, 60, 'connection'),
    );
    // Another connection from the same address starts its own count.
    expect(await failures.judge('203.0.113.7', {})).toBeUndefined();
  });

  it("counts no connection that is a proxy's (no connection given)", async () => {
    const failures = limit();
    for (let n = 0; n < LIMIT * 3; n++) expect(await failures.judge('203.0.113.7')).toBeUndefined();
  });

  it('says which limit refused', () => {
    expect(new TooManyAuthFailuresError(LIMIT, 60, 'connection').message).toBe(
      'more than 3 requests without a valid API key on this connection; it is closed, retry in 60 s',
    );
  });
});
