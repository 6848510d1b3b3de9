import { DynamicModule, Global, Module } from '@nestjs/common';
import { SharedContract } from '@app/platform';
import { IdempotencyStore } from './idempotency-store';
import { IdempotencySettings } from './idempotency.settings';

/**
 * The store behind `@Idempotent()`: global, so that any feature's route can
 * use the decorator without importing this module.
 */
@Global()
@Module({})
export class IdempotencyModule {
  constructor(shared: SharedContract) {
    // A request gives at most one key (two would be judged on the first alone); an answer says whether it is a replay.
    shared.reads('Idempotency-Key', { once: true }).sends('Idempotent-Replayed');
  }

  static forRoot(settings: IdempotencySettings): DynamicModule {
    return {
      module: IdempotencyModule,
      providers: [{ provide: IdempotencySettings, useValue: settings }, IdempotencyStore],
      exports: [IdempotencyStore],
    };
  }
}
