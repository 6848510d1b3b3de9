import { Module } from '@nestjs/common';
import { APP_GUARD, APP_PIPE } from '@nestjs/core';
import { NoBodyGuard } from './no-body.guard';
import { RequestValidationPipe } from './validation.pipe';
import { ValidationContract } from './validation.contract';

/**
 * Request validation on every route: RequestValidationPipe as Nest's global
 * pipe, NoBodyGuard for the routes that take no body, and what it refuses stated in the OpenAPI document. The
 * idempotency module imports it, to validate a keyed body with the same pipe before its transaction.
 */
@Module({
  providers: [
    RequestValidationPipe,
    { provide: APP_PIPE, useExisting: RequestValidationPipe },
    { provide: APP_GUARD, useClass: NoBodyGuard },
    ValidationContract,
  ],
  exports: [RequestValidationPipe],
})
export class ValidationModule {}
