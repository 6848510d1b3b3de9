import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { NotRateLimited } from '../http/not-rate-limited.decorator';
import { Public } from '../http/public.decorator';
import { MetricsService } from './metrics.service';

/** `GET /metrics` for Prometheus: public like health checks; restrict it at the network edge. */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Public()
  @NotRateLimited()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('cache-control', 'no-store')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
