export { IDEMPOTENT_REPLAYED_HEADER, Idempotent } from './idempotent.decorator';
export { IdempotencyStore } from './idempotency-store';
export { IdempotencyKeyInUseError, IdempotencyKeyReusedError } from './idempotency.errors';
export { renamePrincipals } from './principal-renames';
export { IDEMPOTENCY_ERROR_CODES } from './idempotency.errors';
export { IdempotencyModule } from './idempotency.module';
