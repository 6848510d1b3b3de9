import { defineCapability } from '@app/platform';
import { RateLimitModule } from './rate-limit.module';
import { RATE_LIMIT_ERROR_CODES } from './rate-limit.errors';
import { RateLimitSettings } from './rate-limit.settings';

export { RateLimitStorage } from './rate-limit-storage';

/** Rate limiting as the application composes it: the storage limits count in, and RATE_LIMIT_PER_MINUTE's limit. */
export const rateLimitCapability = defineCapability({
  name: 'rate-limit',
  settings: (config) => RateLimitSettings.of(config.settings),
  module: (settings) => RateLimitModule.forRoot(settings),
  errorCodes: RATE_LIMIT_ERROR_CODES,
});
