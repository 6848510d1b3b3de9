export { RateLimitModule } from './rate-limit.module';
export { RateLimitStorage } from './rate-limit-storage';
export { RATE_LIMIT_ERROR_CODES } from './rate-limit.errors';
