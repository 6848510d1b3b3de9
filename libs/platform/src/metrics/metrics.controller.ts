import { Controller, Get, Header, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { AppError } from '../errors/app-error';
import { PLATFORM_ERROR_CODES } from '../errors/error-catalogue';
import { ForMonitors } from '../http/management.decorator';
import { MetricsService } from './metrics.service';

/**
 * `GET /metrics` for Prometheus: public like health checks; on its own port with MANAGEMENT_PORT. With METRICS=off it
 * is answered as a path the service does not serve (404 `route_not_found`).
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @ForMonitors()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('cache-control', 'no-store')
  scrape(@Req() request: FastifyRequest): Promise<string> {
    if (!this.config.metrics) {
      throw new AppError('not_found', PLATFORM_ERROR_CODES.routeNotFound, `no route for ${request.method} /metrics`);
    }
    return this.metrics.registry.metrics();
  }
}
