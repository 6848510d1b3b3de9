import { DynamicModule, Global, Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import type { FastifyInstance } from 'fastify';
import { AppConfig } from './config/app-config';
import { SERVICE_INFO, type ServiceInfo } from './config/service-info';
import { ErrorFilter } from './http/error.filter';
import { FailureTranslators } from './ports/failure-translators';
import { HealthController } from './health/health.controller';
import { Readiness } from './ports/readiness';
import { SharedContract } from './ports/shared-contract';
import { RouteIndex } from './http/route-index';
import { Draining } from './lifecycle/draining';
import { APP_LOGGER, appLoggerOf } from './logging/app-logger';
import { MetricsController } from './metrics/metrics.controller';
import { MetricsService } from './metrics/metrics.service';
import { ServerEdge } from './edge/server-edge';

/**
 * The services every feature relies on: the configuration, logs, metrics, health checks, the ports capabilities
 * register through, the one error filter, and the drain that graceful shutdown starts.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(config: AppConfig, service: ServiceInfo): DynamicModule {
    return {
      module: PlatformModule,
      imports: [TerminusModule.forRoot({ logger: false })],
      controllers: [HealthController, ...(config.metrics ? [MetricsController] : [])],
      providers: [
        { provide: AppConfig, useValue: config },
        { provide: SERVICE_INFO, useValue: service },
        { provide: APP_LOGGER, useValue: appLoggerOf(config) },
        // Read here, as the application is composed, before anything starts.
        { provide: ServerEdge, useValue: new ServerEdge(config) },
        {
          // Created before the routes are declared, so that it sees every one of them.
          provide: RouteIndex,
          inject: [HttpAdapterHost],
          useFactory: (host: HttpAdapterHost) => RouteIndex.watch(host.httpAdapter.getInstance<FastifyInstance>()),
        },
        // The request pipeline registers it globally (pipeline/request-pipeline.ts).
        ErrorFilter,
        MetricsService,
        Readiness,
        FailureTranslators,
        SharedContract,
        Draining,
      ],
      exports: [
        AppConfig,
        SERVICE_INFO,
        APP_LOGGER,
        Draining,
        MetricsService,
        Readiness,
        FailureTranslators,
        SharedContract,
        RouteIndex,
      ],
    };
  }
}
