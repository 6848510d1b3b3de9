import { Global, Module } from '@nestjs/common';
import { AppConfig, CrossOriginHeaders } from '@app/platform';
import { IdempotencyStore } from './idempotency-store';
import { IdempotencySettings } from './idempotency.settings';

/**
 * The store behind `@Idempotent()`: global, so that any feature's route can
 * use the decorator without importing this module.
 */
@Global()
@Module({
  providers: [
    {
      provide: IdempotencySettings,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => IdempotencySettings.of(config.settings),
    },
    IdempotencyStore,
  ],
  exports: [IdempotencyStore],
})
export class IdempotencyModule {
  constructor(cors: CrossOriginHeaders) {
    // A browser's script may send the key and read whether the answer is a replay.
    cors.allow('Idempotency-Key').expose('Idempotent-Replayed');
  }
}
