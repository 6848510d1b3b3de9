import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_GUARD } from '@nestjs/core';
import { getOptionsToken, getStorageToken, type ThrottlerModuleOptions } from '@nestjs/throttler';
import { RateLimitContract } from './rate-limit.contract';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitStorage } from './rate-limit-storage';
import { RateLimitSettings, rateLimitConfig } from './rate-limit.settings';

const WINDOW_MS = 60_000;

/**
 * Rate limiting: `@nestjs/throttler`'s guard for every route (`RateLimitGuard`, `APP_GUARD`), its options from
 * RATE_LIMIT_PER_MINUTE (none when 0: the guard passes every request), and the storage the limits count in, which the
 * auth module imports too (its failed-authentication limit counts there). The app module imports it before the auth
 * module: Nest runs the global guards in the order of their modules, so a key refused 403 for a scope has been counted
 * first, as every other answer after authentication.
 */
@Module({
  imports: [ConfigModule.forFeature(rateLimitConfig)],
  providers: [
    { provide: RateLimitSettings, useExisting: rateLimitConfig.KEY },
    RateLimitStorage.provider,
    { provide: getStorageToken(), useExisting: RateLimitStorage },
    {
      provide: getOptionsToken(),
      inject: [RateLimitSettings],
      useFactory: ({ perMinute }: RateLimitSettings): ThrottlerModuleOptions => ({
        throttlers: perMinute > 0 ? [{ name: 'default', ttl: WINDOW_MS, limit: perMinute }] : [],
      }),
    },
    { provide: APP_GUARD, useClass: RateLimitGuard },
    RateLimitContract,
  ],
  exports: [RateLimitStorage],
})
export class RateLimitModule {}
