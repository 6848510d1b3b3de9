import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ForMonitors } from '../http/management.decorator';
import { MetricsService } from './metrics.service';

/** `GET /metrics` for Prometheus: public like health checks; on its own port with MANAGEMENT_PORT. */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @ForMonitors()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('cache-control', 'no-store')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
