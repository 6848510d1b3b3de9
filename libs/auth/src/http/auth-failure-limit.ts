import { Injectable } from '@nestjs/common';
import { AppConfig, RateLimitStorage } from '@app/platform';
import { TooManyAuthFailuresError } from './auth.errors';

const WINDOW_MS = 60_000;
/** Past this many blocked addresses, expired ones are swept when another is added. */
const SWEEP_ABOVE = 10_000;

/**
 * At most AUTH_FAILURES_PER_MINUTE requests without a valid key (401) per
 * client address and minute, counted where the rate limits are (in Redis when
 * it is configured, so across the fleet). An address over it is refused with
 * 429 before its key is compared with anything, until its window ends.
 *
 * Each instance remembers which addresses are blocked, so the check costs no
 * round trip to Redis; an instance learns of a block the fleet reached on its
 * next failure from that address, which is therefore compared once more.
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

  /** Throws a {@link TooManyAuthFailuresError} if `address` is blocked. */
  check(address: string): void {
    const until = this.blockedUntil.get(address);
    if (until === undefined) return;
    const left = until - Date.now();
    if (left <= 0) {
      this.blockedUntil.delete(address);
      return;
    }
    throw new TooManyAuthFailuresError(this.limit, Math.max(1, Math.ceil(left / 1000)));
  }

  /** Counts a failure of `address`; blocks it once the limit is reached. */
  async record(address: string): Promise<void> {
    if (this.limit === 0) return;
    const count = await this.storage.increment(`auth-failures:${address}`, WINDOW_MS, this.limit, WINDOW_MS, 'auth');
    if (!count.isBlocked && count.totalHits < this.limit) return;
    const seconds = count.isBlocked ? count.timeToBlockExpire : count.timeToExpire;
    if (this.blockedUntil.size > SWEEP_ABOVE) this.sweep();
    this.blockedUntil.set(address, Date.now() + Math.max(1, seconds) * 1000);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [address, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(address);
  }
}
