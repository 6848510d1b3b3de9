import { DynamicModule, Global, Module, Optional, type OnApplicationShutdown } from '@nestjs/common';
import {
  APP_LOGGER,
  MetricsService,
  RequestTracing,
  SERVICE_INFO,
  SharedContract,
  type ServiceInfo,
} from '@app/platform';
import type { Logger } from 'pino';
import type { OtlpTracing } from './otlp-tracing';
import type { TracingSettings } from './tracing.settings';

/**
 * Tracing, when OTEL_EXPORTER_OTLP_ENDPOINT (or its traces variant) is set:
 * the core's RequestTracing, with the OpenTelemetry SDK loaded then and only
 * then. Off, the module provides nothing, and the pipeline and the libraries
 * run no step of it.
 */
@Global()
@Module({})
export class TracingModule implements OnApplicationShutdown {
  constructor(@Optional() private readonly tracing?: RequestTracing) {}

  /** The last spans are sent as the application closes, after its requests have finished. */
  async onApplicationShutdown(): Promise<void> {
    await (this.tracing as OtlpTracing | undefined)?.shutdown();
  }

  static forRoot(settings: TracingSettings): DynamicModule {
    if (settings.endpoint === undefined) return { module: TracingModule };
    return {
      module: TracingModule,
      providers: [
        {
          provide: RequestTracing,
          inject: [SERVICE_INFO, MetricsService, APP_LOGGER, SharedContract],
          useFactory: async (service: ServiceInfo, metrics: MetricsService, logger: Logger, shared: SharedContract) => {
            const { OtlpTracing } = await import('./otlp-tracing.js');
            shared.sends('traceresponse');
            return new OtlpTracing(settings, service, metrics, logger);
          },
        },
      ],
      exports: [RequestTracing],
    };
  }
}
