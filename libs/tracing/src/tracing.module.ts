import { DynamicModule, Global, Inject, Module, Optional, type OnApplicationShutdown } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_LOGGER, MetricsService, RequestTracing, SERVICE_INFO, type ServiceInfo } from '@app/platform';
import type { Logger } from 'pino';
import type { OtlpTracing } from './otlp-tracing';
import { TracingContract } from './tracing.contract';
import { tracingConfig, type TracingSettings } from './tracing.settings';

/**
 * Tracing, when OTEL_EXPORTER_OTLP_ENDPOINT (or its traces variant) is set:
 * the core's RequestTracing, with the OpenTelemetry SDK loaded then and only
 * then. Off, RequestTracing is `null`, and the pipeline and the libraries run
 * no step of it.
 */
@Global()
@Module({})
export class TracingModule implements OnApplicationShutdown {
  constructor(@Optional() @Inject(RequestTracing) private readonly tracing?: RequestTracing | null) {}

  /** The last spans are sent as the application closes, after its requests have finished. */
  async onApplicationShutdown(): Promise<void> {
    await (this.tracing as OtlpTracing | null | undefined)?.shutdown();
  }

  static forRoot(): DynamicModule {
    return {
      module: TracingModule,
      imports: [ConfigModule.forFeature(tracingConfig)],
      providers: [
        {
          provide: RequestTracing,
          inject: [tracingConfig.KEY, SERVICE_INFO, MetricsService, APP_LOGGER],
          useFactory: async (
            settings: TracingSettings,
            service: ServiceInfo,
            metrics: MetricsService,
            logger: Logger,
          ) => {
            if (settings.endpoint === undefined) return null;
            const { OtlpTracing } = await import('./otlp-tracing.js');
            return new OtlpTracing(settings, service, metrics, logger);
          },
        },
        TracingContract,
      ],
      exports: [RequestTracing],
    };
  }
}
