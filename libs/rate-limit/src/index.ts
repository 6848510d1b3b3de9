export { RateLimitStorage } from './rate-limit-storage';
export { RATE_LIMIT_ERROR_CODES } from './rate-limit.errors';
export { RateLimitModule } from './rate-limit.module';
