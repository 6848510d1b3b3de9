import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Logger } from 'pino';
import { SERVICE_INFO, type ServiceInfo } from '../config/service-info';
import { APP_LOGGER, droppedLinesOf } from '../logging/app-logger';

/**
 * Prometheus metrics: request counts and latencies by route template, method and status; the default process metrics;
 * `<id>_build_info`, the release this process runs. One registry per application, so that tests can run several.
 */
@Injectable()
export class MetricsService {
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

  private readonly prefix: string;
  /** Bounded: routes are templates (or `unmatched`), methods are those Node parses, statuses are finite. */
  private readonly series = new Map<
    string,
    { requests: ReturnType<Counter['labels']>; duration: ReturnType<Histogram['labels']> }
  >();

  constructor(@Inject(SERVICE_INFO) service: ServiceInfo, @Inject(APP_LOGGER) logger: Logger) {
    collectDefaultMetrics({ register: this.registry });
    let counted = 0;
    new Counter({
      name: `${service.id}_log_lines_dropped_total`,
      help: 'Log lines dropped because stdout was not read fast enough (more than 1 MiB waiting).',
      registers: [this.registry],
      collect() {
        const dropped = droppedLinesOf(logger);
        this.inc(dropped - counted);
        counted = dropped;
      },
    });
    new Gauge({
      name: `${service.id}_build_info`,
      help: 'The release of the service this process runs (CHANGELOG.md); always 1.',
      labelNames: ['version'] as const,
      registers: [this.registry],
    }).set({ version: service.release }, 1);
    this.prefix = service.id;
  }

  /** A counter of a capability's own (the rate-limit storage's failures), named `<service>_<name>` and served here. */
  counter<L extends string = string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return new Counter({ name: `${this.prefix}_${name}`, help, labelNames, registers: [this.registry] });
  }

  /** A gauge of a capability's own, named `<service>_<name>`; `collect` sets its values as `/metrics` is read. */
  gauge<L extends string = string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    collect: (gauge: Gauge<L>) => void | Promise<void>,
  ): Gauge<L> {
    return new Gauge({
      name: `${this.prefix}_${name}`,
      help,
      labelNames,
      registers: [this.registry],
      collect() {
        return collect(this);
      },
    });
  }

  /** A histogram of a capability's own, named `<service>_<name>`, with the upper bounds of its buckets. */
  histogram<L extends string = string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    buckets: number[],
  ): Histogram<L> {
    return new Histogram({ name: `${this.prefix}_${name}`, help, labelNames, buckets, registers: [this.registry] });
  }

  /** One route, method and status's series, looked up once: prom-client would hash the labels on every request. */
  private seriesOf(route: string, method: string, status: number) {
    const key = `${route} ${method} ${status}`;
    let series = this.series.get(key);
    if (!series) {
      series = {
        requests: this.requests.labels(route, method, String(status)),
        duration: this.duration.labels(route, method, String(status)),
      };
      this.series.set(key, series);
    }
    return series;
  }

  /** Counts an answer given outside the routes (Node's parser, an unknown expectation, the router's refusals). */
  readonly countUnrouted = (method: string, status: number): void => {
    this.requests.inc({ route: 'unmatched', method, status: String(status) });
  };

  /** One answer: counted, its latency observed. */
  observeRequest(route: string, method: string, status: number, seconds: number): void {
    const series = this.seriesOf(route, method, status);
    series.requests.inc();
    series.duration.observe(seconds);
  }
}
