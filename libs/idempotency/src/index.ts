import { defineCapability } from '@app/platform';
import { IDEMPOTENCY_ERROR_CODES } from './idempotency.errors';
import { IdempotencyModule } from './idempotency.module';
import { IdempotencyRecord } from './idempotency.record';
import { IdempotencySettings } from './idempotency.settings';
import { CreateIdempotencyKeys1795400000001 } from './migrations/1795400000001-create-idempotency-keys';
import { IdempotencyKeysAsTheirEntity1795600000003 } from './migrations/1795600000003-idempotency-keys-as-their-entity';
import { IdempotencyKeysNamedForTheirLibrary1795700000001 } from './migrations/1795700000001-idempotency-keys-named-for-their-library';

export { IDEMPOTENT_REPLAYED_HEADER, Idempotent } from './idempotent.decorator';
export { IdempotencyStore } from './idempotency-store';
export { IdempotencyKeyInUseError, IdempotencyKeyReusedError } from './idempotency.errors';
export { renamePrincipals } from './principal-renames';

/** Idempotency as the application composes it: the store behind `@Idempotent()`, and its table. */
export const idempotencyCapability = defineCapability({
  name: 'idempotency',
  settings: (config) => IdempotencySettings.of(config.settings),
  module: (settings) => IdempotencyModule.forRoot(settings),
  entities: [IdempotencyRecord],
  migrations: [
    CreateIdempotencyKeys1795400000001,
    IdempotencyKeysAsTheirEntity1795600000003,
    IdempotencyKeysNamedForTheirLibrary1795700000001,
  ],
  errorCodes: IDEMPOTENCY_ERROR_CODES,
});
