import { Global, Module } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { SharedContract } from '@app/platform';
import { describeValidation } from './validation.document';
import { RequestValidationPipe } from './validation.pipe';

/**
 * Request validation on every route: RequestValidationPipe as Nest's global
 * pipe, and what it refuses stated in the OpenAPI document. Global, so that
 * the idempotency interceptor, in any feature's module, validates with it.
 */
@Global()
@Module({
  providers: [RequestValidationPipe, { provide: APP_PIPE, useExisting: RequestValidationPipe }],
  exports: [RequestValidationPipe],
})
export class ValidationModule {
  constructor(shared: SharedContract) {
    shared.describes(describeValidation);
  }
}
