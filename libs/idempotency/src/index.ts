import { defineFeature } from '@app/platform';
import { IDEMPOTENCY_ERROR_CODES } from './idempotency.errors';
import { IdempotencyModule } from './idempotency.module';
import { IdempotencyRecord } from './idempotency.record';
import { IdempotencySettings } from './idempotency.settings';
import { CreateIdempotencyKeys1795400000001 } from './migrations/1795400000001-create-idempotency-keys';

export { IDEMPOTENT_REPLAYED_HEADER, Idempotent } from './idempotent.decorator';
export { IdempotencyStore } from './idempotency-store';
export { IdempotencyKeyInUseError, IdempotencyKeyReusedError } from './idempotency.errors';

/** Idempotency as the application composes it: its module, its table and the migration that makes it. */
export const idempotencyFeature = defineFeature({
  name: 'idempotency',
  module: IdempotencyModule,
  entities: [IdempotencyRecord],
  migrations: [CreateIdempotencyKeys1795400000001],
  errorCodes: IDEMPOTENCY_ERROR_CODES,
  checkSettings: (config) => void IdempotencySettings.of(config.settings),
});
