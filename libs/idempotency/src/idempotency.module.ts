import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { DatabaseModule } from '@app/database';
import { ValidationModule } from '@app/validation';
import { IdempotencyContract } from './idempotency.contract';
import { IdempotencyStore } from './idempotency-store';
import { IdempotencyRecord } from './idempotency.record';
import { IdempotencySettings, idempotencyConfig } from './idempotency.settings';
import { CreateIdempotencyKeys1795400000001 } from './migrations/1795400000001-create-idempotency-keys';
import { IdempotencyKeysAsTheirEntity1795600000003 } from './migrations/1795600000003-idempotency-keys-as-their-entity';
import { IdempotencyKeysNamedForTheirLibrary1795700000001 } from './migrations/1795700000001-idempotency-keys-named-for-their-library';

/**
 * The store behind `@Idempotent()`, its settings (`idempotencyConfig`, Nest's `idempotency` namespace), its table and
 * migrations. A feature with an `@Idempotent()` route imports it, so that the route's interceptor finds the store; the
 * app module imports it too.
 */
@Module({
  imports: [
    ConfigModule.forFeature(idempotencyConfig),
    DatabaseModule.forFeature({
      entities: [IdempotencyRecord],
      migrations: [
        CreateIdempotencyKeys1795400000001,
        IdempotencyKeysAsTheirEntity1795600000003,
        IdempotencyKeysNamedForTheirLibrary1795700000001,
      ],
    }),
    ValidationModule,
  ],
  providers: [
    { provide: IdempotencySettings, useExisting: idempotencyConfig.KEY },
    IdempotencyStore,
    IdempotencyContract,
  ],
  exports: [IdempotencyStore, ValidationModule],
})
export class IdempotencyModule {}
