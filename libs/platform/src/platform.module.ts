import { DynamicModule, Global, Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_FILTER, DiscoveryModule, DiscoveryService, HttpAdapterHost } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import type { FastifyInstance } from 'fastify';
import { AppConfig, appConfig } from './config/app-config';
import { SERVICE_INFO, type ServiceInfo } from './config/service-info';
import { ErrorFilter } from './http/error.filter';
import { FailureTranslations } from './http/failure-translator';
import { HealthController } from './health/health.controller';
import { RouteIndex } from './http/route-index';
import { Draining } from './lifecycle/draining';
import { APP_LOGGER, appLoggerOf } from './logging/app-logger';
import { MetricsModule } from './metrics/metrics.module';
import { EdgeSettings, edgeConfig } from './edge/edge.settings';

/**
 * The services every feature relies on: the configuration, logs, metrics, health checks, Nest's discovery (through
 * which the core finds the modules' @ReadinessCheck(), @FailureTranslator() and @OperationContract() providers), the
 * one error filter, and the drain that graceful shutdown starts.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(service: ServiceInfo): DynamicModule {
    return {
      module: PlatformModule,
      imports: [
        ConfigModule.forFeature(appConfig),
        ConfigModule.forFeature(edgeConfig),
        TerminusModule.forRoot({ logger: false }),
        DiscoveryModule,
        // /metrics, and the service every module counts in (it answers 404 when METRICS=off).
        MetricsModule,
      ],
      controllers: [HealthController],
      providers: [
        { provide: AppConfig, useExisting: appConfig.KEY },
        { provide: SERVICE_INFO, useValue: service },
        { provide: APP_LOGGER, inject: [AppConfig], useFactory: appLoggerOf },
        { provide: EdgeSettings, useExisting: edgeConfig.KEY },
        {
          // Created before the routes are declared, so that it sees every one of them.
          provide: RouteIndex,
          inject: [HttpAdapterHost],
          useFactory: (host: HttpAdapterHost) => RouteIndex.watch(host.httpAdapter.getInstance<FastifyInstance>()),
        },
        // The one error filter, for every route: whatever a step of Nest's throws, answered in the Error shape.
        { provide: APP_FILTER, useClass: ErrorFilter },
        // The modules' @FailureTranslator() providers, as the error filter asks them.
        { provide: FailureTranslations, inject: [DiscoveryService], useFactory: FailureTranslations.discovered },
        Draining,
      ],
      exports: [AppConfig, SERVICE_INFO, APP_LOGGER, Draining, MetricsModule, RouteIndex],
    };
  }
}
