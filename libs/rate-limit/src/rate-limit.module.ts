import { DynamicModule, Global, Module } from '@nestjs/common';
import { CallerLimit } from '@app/platform';
import { RateLimit } from './rate-limit';
import { RateLimitStorage } from './rate-limit-storage';
import { RateLimitSettings } from './rate-limit.settings';

/**
 * Rate limiting: the storage the limits count in (global: the auth module's
 * failed-authentication limit counts there too), and, when
 * RATE_LIMIT_PER_MINUTE is above 0, the core's CallerLimit.
 */
@Global()
@Module({})
export class RateLimitModule {
  static forRoot(settings: RateLimitSettings): DynamicModule {
    const limits = settings.perMinute > 0 ? [{ provide: CallerLimit, useClass: RateLimit }] : [];
    return {
      module: RateLimitModule,
      providers: [{ provide: RateLimitSettings, useValue: settings }, RateLimitStorage.provider, ...limits],
      exports: [RateLimitStorage, ...limits.map((limit) => limit.provide)],
    };
  }
}
