import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { CallerLimit, SharedContract } from '@app/platform';
import { RateLimit } from './rate-limit';
import { RateLimitStorage } from './rate-limit-storage';
import { RateLimitSettings, rateLimitConfig } from './rate-limit.settings';

/**
 * Rate limiting: the storage the limits count in (the auth module imports it: its failed-authentication limit counts
 * there too), and, when RATE_LIMIT_PER_MINUTE is above 0, the core's CallerLimit (none otherwise).
 */
@Module({
  imports: [ConfigModule.forFeature(rateLimitConfig)],
  providers: [
    { provide: RateLimitSettings, useExisting: rateLimitConfig.KEY },
    RateLimitStorage.provider,
    {
      provide: CallerLimit,
      inject: [RateLimitSettings, RateLimitStorage, SharedContract],
      useFactory: (settings: RateLimitSettings, storage: RateLimitStorage, shared: SharedContract) =>
        settings.perMinute > 0 ? new RateLimit(storage, settings, shared) : null,
    },
  ],
  exports: [RateLimitStorage, CallerLimit],
})
export class RateLimitModule {}
