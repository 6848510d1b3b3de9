import type { FastifyReply, preParsingHookHandler } from 'fastify';
import { AppError } from '../errors/app-error';
import { PLATFORM_ERROR_CODES } from '../errors/error-catalogue';
import { routeSettingsOf } from '../http/route-config';
import type { RateLimitStorage } from '../rate-limit/rate-limit-storage';

const WINDOW_MS = 60_000;

/**
 * RATE_LIMIT_PER_MINUTE requests per caller (per address on a public route)
 * across every operation, counted in the rate-limit storage (this process, or
 * Redis for a fleet), with the IETF `RateLimit-*` headers on every answer and
 * a 429 with `Retry-After` past the limit. Runs after authentication (the
 * budget is the caller's) and before the body is read: a refused request
 * costs no parsing. Routes for monitors (`@ForMonitors()`: health, metrics) and
 * the documentation are never limited.
 */
export function limitRate(storage: RateLimitStorage, limit: number): preParsingHookHandler {
  return (request, reply, payload, done) => {
    const settings = routeSettingsOf(request);
    if (settings.notRateLimited) return done(null, payload);
    const tracker = request.caller === undefined ? `ip:${request.ip}` : `key:${request.caller}`;
    storage.increment(`default:${tracker}`, WINDOW_MS, limit, WINDOW_MS, 'default').then(
      ({ totalHits, timeToExpire, isBlocked, timeToBlockExpire }) => {
        if (isBlocked) return done(refused(reply, limit, timeToBlockExpire));
        reply.header('ratelimit-limit', String(limit));
        reply.header('ratelimit-remaining', String(Math.max(0, limit - totalHits)));
        reply.header('ratelimit-reset', String(timeToExpire));
        done(null, payload);
      },
      (error: Error) => done(error),
    );
  };
}

function refused(reply: FastifyReply, limit: number, seconds: number): AppError {
  reply.header('retry-after', String(seconds));
  reply.header('ratelimit-limit', String(limit));
  reply.header('ratelimit-remaining', '0');
  reply.header('ratelimit-reset', String(seconds));
  return new AppError(
    'rate_limited',
    PLATFORM_ERROR_CODES.rateLimited,
    `rate limit of ${limit} requests per minute exceeded; retry in ${seconds} s`,
  );
}
