import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE, HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { AppConfig } from './config/app-config';
import { ErrorFilter } from './errors/error.filter';
import { DeprecationHeaders } from './http/deprecation-headers';
import { RouteIndex } from './http/route-index';
import { RequestValidationPipe } from './http/validation.pipe';
import { Drain } from './lifecycle/drain.service';

/**
 * Cross-cutting services every feature relies on: the validated configuration,
 * request validation, the one error filter, the deprecation headers, and the
 * drain that graceful shutdown starts.
 * Registered as providers (`APP_*`) so the e2e tests get exactly what runs in
 * production.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: PlatformModule,
      providers: [
        { provide: AppConfig, useValue: config },
        {
          // Created before the routes are declared, so that it sees every one of them.
          provide: RouteIndex,
          inject: [HttpAdapterHost],
          useFactory: (host: HttpAdapterHost) => RouteIndex.watch(host.httpAdapter.getInstance<FastifyInstance>()),
        },
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_PIPE, useClass: RequestValidationPipe },
        DeprecationHeaders,
        Drain,
      ],
      exports: [AppConfig, Drain],
    };
  }
}
