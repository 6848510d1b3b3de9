import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error';
import { PLATFORM_ERROR_CODES } from '../errors/error-catalogue';
import { requestContext } from '../http/request-context';

/**
 * @nestjs/throttler, per API key (per address for the rare unauthenticated
 * route that is limited), with the IETF `RateLimit-*` header names and a 429
 * in the contract's Error shape.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override headerPrefix = 'RateLimit';

  protected override async getTracker(request: Record<string, unknown>): Promise<string> {
    const fastifyRequest = request as unknown as FastifyRequest;
    const principal = requestContext(fastifyRequest.raw).principal;
    return principal ? `key:${principal}` : `ip:${fastifyRequest.ip}`;
  }

  /** One budget per caller across every operation (the default would keep one per handler). */
  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }

  protected override async throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    reply.header('ratelimit-limit', String(detail.limit));
    reply.header('ratelimit-remaining', '0');
    reply.header('ratelimit-reset', String(detail.timeToBlockExpire));
    throw new AppError(
      'rate_limited',
      PLATFORM_ERROR_CODES.rateLimited,
      `rate limit of ${detail.limit} requests per minute exceeded; retry in ${detail.timeToBlockExpire} s`,
    );
  }
}
