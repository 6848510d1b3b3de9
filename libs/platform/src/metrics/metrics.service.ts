import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { SERVICE_INFO, type ServiceInfo } from '../config/service-info';
import { requestContext } from '../http/request-context';
import { routeSettingsOf } from '../http/route-config';

/**
 * Prometheus metrics of this application: request counts and latencies by
 * route template, method and status; the default process metrics; and calls
 * to deprecated operations by caller, so that operators can see who must
 * migrate before a sunset. One registry per application (not prom-client's
 * global one), so several applications can live in one process (tests).
 */
@Injectable()
export class MetricsService implements OnModuleInit {
  readonly registry = new Registry();

  private readonly requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by route template, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });

  private readonly duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to answering it, by route template, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  private readonly deprecatedCalls: Counter<'operation' | 'sunset' | 'caller'>;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(SERVICE_INFO) service: ServiceInfo,
  ) {
    collectDefaultMetrics({ register: this.registry });
    this.deprecatedCalls = new Counter({
      name: `${service.id}_deprecated_operation_calls_total`,
      help: 'Calls to deprecated operations, by operation, sunset date and caller (API key fingerprint, or "anonymous").',
      labelNames: ['operation', 'sunset', 'caller'] as const,
      registers: [this.registry],
    });
  }

  /** Counts an answer given outside the routes (Node's parser, an unknown expectation, the router's refusals). */
  readonly countUnrouted = (method: string, status: number): void => {
    this.requests.inc({ route: 'unmatched', method, status: String(status) });
  };

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onResponse', (request, reply, done) => {
      const { route = 'unmatched', principal } = requestContext(request.raw);
      const labels = { route, method: request.method, status: String(reply.statusCode) };
      this.requests.inc(labels);
      this.duration.observe(labels, reply.elapsedTime / 1000);
      const deprecation = routeSettingsOf(request).deprecation;
      if (deprecation) {
        this.deprecatedCalls.inc({
          operation: deprecation.operationId,
          sunset: deprecation.sunsetDay,
          caller: principal ?? 'anonymous',
        });
      }
      done();
    });
  }
}
