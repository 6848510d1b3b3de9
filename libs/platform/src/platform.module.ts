import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, HttpAdapterHost } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { ThrottlerModule } from '@nestjs/throttler';
import type { FastifyInstance } from 'fastify';
import { AppConfig } from './config/app-config';
import { SERVICE_INFO, type ServiceInfo } from './config/service-info';
import { SqliteFileIdentity } from './database/sqlite-file-identity';
import { ErrorFilter } from './errors/error.filter';
import { IdempotencyStore } from './idempotency/idempotency-store';
import { DatabaseHealthIndicator } from './health/database.health';
import { HealthController } from './health/health.controller';
import { Readiness } from './health/readiness';
import { DeprecationHeaders } from './http/deprecation-headers';
import { RequestContextHooks } from './http/request-context.hooks';
import { RouteIndex } from './http/route-index';
import { RequestValidationPipe } from './http/validation.pipe';
import { Drain } from './lifecycle/drain.service';
import { appLoggerOf } from './logging/app-logger';
import { APP_LOGGER, RequestLogHooks } from './logging/request-log.hooks';
import { MetricsController } from './metrics/metrics.controller';
import { MetricsService } from './metrics/metrics.service';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { RateLimitStorage } from './rate-limit/rate-limit-storage';

/**
 * Cross-cutting services every feature relies on: the validated configuration,
 * logs, metrics, health checks, rate limiting, request validation, the one
 * error filter, the deprecation headers, and the drain that graceful shutdown
 * starts. Registered as providers (`APP_*`) so the e2e tests get exactly what
 * runs in production.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(config: AppConfig, service: ServiceInfo): DynamicModule {
    return {
      module: PlatformModule,
      imports: [
        TerminusModule.forRoot({ logger: false }),
        ThrottlerModule.forRootAsync({
          inject: [RateLimitStorage],
          useFactory: (storage: RateLimitStorage) => ({
            throttlers: [{ name: 'default', ttl: 60_000, limit: config.rateLimitPerMinute }],
            storage,
          }),
        }),
      ],
      controllers: [HealthController, ...(config.metrics ? [MetricsController] : [])],
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: SERVICE_INFO, useValue: service },
        { provide: APP_LOGGER, useValue: appLoggerOf(config) },
        RequestLogHooks,
        {
          // Created before the routes are declared, so that it sees every one of them.
          provide: RouteIndex,
          inject: [HttpAdapterHost],
          useFactory: (host: HttpAdapterHost) => RouteIndex.watch(host.httpAdapter.getInstance<FastifyInstance>()),
        },
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_PIPE, useClass: RequestValidationPipe },
        RateLimitStorage.provider,
        // Absent, not skipped, when rate limiting is off: no guard runs on any request then.
        ...(config.rateLimitPerMinute > 0 ? [{ provide: APP_GUARD, useClass: RateLimitGuard }] : []),
        RequestContextHooks,
        DeprecationHeaders,
        MetricsService,
        {
          // Used by the SQLite driver and by readiness; never recorded, so never "detached", on PostgreSQL.
          provide: SqliteFileIdentity,
          useFactory: () => new SqliteFileIdentity(config.database.type === 'sqlite' ? config.database.path : ''),
        },
        DatabaseHealthIndicator,
        Readiness,
        IdempotencyStore,
        Drain,
      ],
      exports: [
        AppConfig,
        APP_LOGGER,
        Drain,
        MetricsService,
        SqliteFileIdentity,
        IdempotencyStore,
        RateLimitStorage,
        Readiness,
      ],
    };
  }
}
