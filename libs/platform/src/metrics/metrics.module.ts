import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

/**
 * Prometheus metrics, Nest's way: `MetricsService` (prom-client, one registry per application: decision 0004) for any
 * module to count in, and `GET /metrics`. The core imports and re-exports it, so every module injects the service as
 * it injects the configuration and the logger; the request counts are the pipeline's `onResponse` step.
 */
@Module({
  controllers: [MetricsController],
  providers: [MetricsService],
  exports: [MetricsService],
})
export class MetricsModule {}
