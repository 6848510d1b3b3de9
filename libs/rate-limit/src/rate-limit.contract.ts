import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { OperationContract, type AppError } from '@app/platform';
import { describeRateLimit, RATE_LIMIT_HEADERS } from './rate-limit.document';
import { RateLimitedError } from './rate-limit.errors';
import { RateLimitSettings } from './rate-limit.settings';

/**
 * What the rate limit adds to every operation, unless RATE_LIMIT_PER_MINUTE=0: its headers (for CORS and the
 * document) and its 429, the document's example at the configured limit.
 */
@Injectable()
@OperationContract()
export class RateLimitContract implements OperationContract {
  readonly sends: readonly string[];
  readonly mayAnswer: readonly AppError[];
  private readonly on: boolean;

  constructor({ perMinute }: RateLimitSettings) {
    this.on = perMinute > 0;
    this.sends = this.on ? Object.keys(RATE_LIMIT_HEADERS) : [];
    this.mayAnswer = this.on ? [new RateLimitedError(perMinute, 12)] : [];
  }

  describe(document: OpenAPIObject): void {
    if (this.on) describeRateLimit(document);
  }
}
