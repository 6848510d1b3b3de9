import { Injectable } from '@nestjs/common';
import { AppConfig, RateLimitStorage } from '@app/platform';
import { TooManyAuthFailuresError } from './auth.errors';

const WINDOW_MS = 60_000;
/** Past this many blocked addresses, expired ones are swept when another is added. */
const SWEEP_ABOVE = 10_000;

/**
 * At most AUTH_FAILURES_PER_MINUTE requests without a valid key (401) per
 * client address and minute, counted where the rate limits are (in Redis when
 * it is configured, so across the fleet); the failures past it are answered
 * 429 instead. Keys carry 256 random bits, so this limit cannot slow a guess:
 * it sheds the load of clients that keep failing. A valid key is therefore
 * always served (its own rate limit aside), from a blocked address too: one
 * misconfigured client behind a proxy must not lock out everyone else there.
 *
 * Whether a failure is one too many is decided by the count the storage
 * returns for it (Redis counts atomically), so a burst of concurrent failures
 * from many instances gets exactly the limit of 401s. Each instance also
 * remembers which addresses are blocked, so that their further failures cost
 * no round trip to Redis.
 */
@Injectable()
export class AuthFailureLimit {
  private readonly limit: number;
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    config: AppConfig,
    private readonly storage: RateLimitStorage,
  ) {
    this.limit = config.authFailuresPerMinute;
  }

  /**
   * Counts a failed authentication of `address`: resolves with the error to
   * answer instead of the 401 when it is one too many, or `undefined`.
   */
  async judge(address: string): Promise<TooManyAuthFailuresError | undefined> {
    if (this.limit === 0) return undefined;
    const known = this.blockedUntil.get(address);
    if (known !== undefined) {
      const left = known - Date.now();
      if (left > 0) return new TooManyAuthFailuresError(this.limit, Math.max(1, Math.ceil(left / 1000)));
      this.blockedUntil.delete(address);
    }
    const count = await this.storage.increment(`auth-failures:${address}`, WINDOW_MS, this.limit, WINDOW_MS, 'auth');
    if (!count.isBlocked) return undefined;
    const seconds = Math.max(1, count.timeToBlockExpire);
    if (this.blockedUntil.size > SWEEP_ABOVE) this.sweep();
    this.blockedUntil.set(address, Date.now() + seconds * 1000);
    return new TooManyAuthFailuresError(this.limit, seconds);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [address, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(address);
  }
}
