import { Injectable, type ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import { routeSettingsOf } from '@app/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimitedError } from './rate-limit.errors';

/**
 * RATE_LIMIT_PER_MINUTE requests per caller (per address on a public route) across every operation: `@nestjs/throttler`'s
 * guard, counting in the rate-limit storage (this process, or Redis for a fleet: one budget per caller across the
 * fleet), with the IETF `RateLimit-*` headers on every answer it counted and a 429 `rate_limited` with `Retry-After`
 * past the limit. What the guard makes its own: the caller the bearer key named as the tracker (the auth module's
 * hook has authenticated every request before any guard runs), one key for all routes (the throttler's default is one
 * per route), the headers' IETF names, the Error shape, and the routes for monitors left out (`@ForMonitors()`).
 * Off when RATE_LIMIT_PER_MINUTE is 0.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override headerPrefix = 'RateLimit';

  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return Promise.resolve(this.throttlers.length === 0 || routeSettingsOf(request).notRateLimited === true);
  }

  protected override getTracker(request: FastifyRequest): Promise<string> {
    return Promise.resolve(request.caller === undefined ? `ip:${request.ip}` : `key:${request.caller}`);
  }

  /** One budget for all of a caller's operations, under the key it has had since 1.x (`default:key:<name>`). */
  protected override generateKey(_context: ExecutionContext, tracker: string, throttler: string): string {
    return `${throttler}:${tracker}`;
  }

  protected override throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const seconds = detail.timeToBlockExpire;
    context
      .switchToHttp()
      .getResponse<FastifyReply>()
      .header('ratelimit-limit', String(detail.limit))
      .header('ratelimit-remaining', '0')
      .header('ratelimit-reset', String(seconds));
    return Promise.reject(new RateLimitedError(detail.limit, seconds));
  }
}
