export { RateLimitModule } from './rate-limit.module';
export { RateLimitStorage } from './rate-limit-storage';
