import { Global, Module } from '@nestjs/common';
import { IdempotencyStore } from './idempotency-store';

/**
 * The store behind `@Idempotent()`: global, so that any feature's route can
 * use the decorator without importing this module.
 */
@Global()
@Module({ providers: [IdempotencyStore], exports: [IdempotencyStore] })
export class IdempotencyModule {}
