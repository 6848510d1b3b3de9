import { AppError } from '@app/platform';

/** The code a caller past its limit is answered with (the service's README lists it). */
export const RATE_LIMIT_ERROR_CODES = { rateLimited: 'rate_limited' } as const;

/** 429: the caller used up this minute's requests (answered with Retry-After). */
export class RateLimitedError extends AppError {
  constructor(limit: number, retryAfterSeconds: number) {
    super(
      'rate_limited',
      RATE_LIMIT_ERROR_CODES.rateLimited,
      `rate limit of ${limit} requests per minute exceeded; retry in ${retryAfterSeconds} s`,
    );
  }
}
