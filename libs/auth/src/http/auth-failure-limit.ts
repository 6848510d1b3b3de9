import { Injectable } from '@nestjs/common';
import { RateLimitStorage } from '@app/rate-limit';
import { AuthSettings } from '../config/auth.settings';
import { TooManyAuthFailuresError } from './auth.errors';

const WINDOW_MS = 60_000;
/** Past this many blocked addresses, expired ones are swept when another is added. */
const SWEEP_ABOVE = 10_000;
/** Failures counted on a connection, for the whole of its life. */
const FAILURES = Symbol('failed authentications on this connection');

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
 *
 * The same limit holds per connection, counted on the connection itself for
 * its whole life, where the connection is the client's own: it holds when the
 * address's count cannot (Redis unreachable, which fails open; a new minute),
 * and the answer that refuses either closes the connection (see
 * BearerGuard), so a client that keeps failing pays a new connection
 * for each further try.
 */
@Injectable()
export class AuthFailureLimit {
  private readonly limit: number;
  private readonly blockedUntil = new Map<string, number>();

  constructor(
    settings: AuthSettings,
    private readonly storage: RateLimitStorage,
  ) {
    this.limit = settings.failuresPerMinute;
  }

  /**
   * Counts a failed authentication from `address`, and on `connection` when
   * the connection is the client's own (not a proxy's, which carries many
   * clients' requests): resolves with the error to answer instead of the 401
   * when it is one too many for either, or `undefined`.
   */
  async judge(address: string, connection?: object): Promise<TooManyAuthFailuresError | undefined> {
    if (this.limit === 0) return undefined;
    const fromAddress = await this.judgeAddress(address);
    if (fromAddress || !connection) return fromAddress;
    const counted = connection as { [FAILURES]?: number };
    counted[FAILURES] = (counted[FAILURES] ?? 0) + 1;
    return counted[FAILURES] > this.limit
      ? new TooManyAuthFailuresError(this.limit, WINDOW_MS / 1000, 'connection')
      : undefined;
  }

  private async judgeAddress(address: string): Promise<TooManyAuthFailuresError | undefined> {
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
