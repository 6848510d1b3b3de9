import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CallerLimit, SharedContract } from '@app/platform';
import { RateLimitedError } from './rate-limit.errors';
import { RateLimitStorage } from './rate-limit-storage';
import { RateLimitSettings } from './rate-limit.settings';

const WINDOW_MS = 60_000;

/**
 * RATE_LIMIT_PER_MINUTE requests per caller (per address on a public route)
 * across every operation, counted in the rate-limit storage (this process, or
 * Redis for a fleet), with the IETF `RateLimit-*` headers on every answer and
 * a 429 with `Retry-After` past the limit. The core's pipeline runs it after
 * authentication and before the body is read (pipeline/limit-callers.ts).
 */
@Injectable()
export class RateLimit extends CallerLimit {
  readonly headers = {
    'RateLimit-Limit': { description: 'Requests allowed per minute for this API key.', schema: { type: 'integer' } },
    'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
    'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
  };
  private readonly limit: number;

  constructor(
    private readonly storage: RateLimitStorage,
    settings: RateLimitSettings,
    shared: SharedContract,
  ) {
    super();
    this.limit = settings.perMinute;
    // The document's example refusal, at the configured limit.
    shared.sends(...Object.keys(this.headers)).mayAnswer(new RateLimitedError(this.limit, 12));
  }

  admit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { limit } = this;
    const tracker = request.caller === undefined ? `ip:${request.ip}` : `key:${request.caller}`;
    return this.storage
      .increment(`default:${tracker}`, WINDOW_MS, limit, WINDOW_MS, 'default')
      .then(({ totalHits, timeToExpire, isBlocked, timeToBlockExpire }) => {
        if (isBlocked) throw refused(reply, limit, timeToBlockExpire);
        reply.header('ratelimit-limit', String(limit));
        reply.header('ratelimit-remaining', String(Math.max(0, limit - totalHits)));
        reply.header('ratelimit-reset', String(timeToExpire));
      });
  }
}

function refused(reply: FastifyReply, limit: number, seconds: number): RateLimitedError {
  reply.header('retry-after', String(seconds));
  reply.header('ratelimit-limit', String(limit));
  reply.header('ratelimit-remaining', '0');
  reply.header('ratelimit-reset', String(seconds));
  return new RateLimitedError(limit, seconds);
}
