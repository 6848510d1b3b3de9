import { AsyncLocalStorage } from 'node:async_hooks';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  createNoopMeter,
  defaultTextMapGetter,
  trace,
  type Attributes,
  type Context,
  type Counter,
  type MeterProvider,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { ExportResultCode, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  RandomIdGenerator,
  SamplingDecision,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import type {
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  onResponseHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import type { Logger } from 'pino';
import type { Counter as PromCounter } from 'prom-client';
import { RequestTracing, pathOf, withoutCredentials, type MetricsService, type ServiceInfo } from '@app/platform';
import type { TracingSettings } from './tracing.settings';

/** How long a shutdown waits for the last spans to reach the collector. */
const FLUSH_LIMIT_MS = 3_000;

/**
 * Exports in flight at once, retries included; one more is refused, its spans counted as lost. The exporter's default
 * (30) let a collector that is down hold 30 batches of spans being retried, beside the queue: hundreds of MB.
 */
const EXPORTS_IN_FLIGHT = 2;

/**
 * Request tracing with the OpenTelemetry SDK, exported over OTLP/HTTP. Loaded
 * only when an endpoint is configured (tracing.module.ts). It registers
 * nothing global: the span of the current request lives in a storage of its
 * own, so that several applications in one process (the tests) keep apart.
 */
export class OtlpTracing extends RequestTracing {
  private readonly provider: TracerProvider;
  private readonly tracer: Tracer;
  private readonly propagator = new W3CTraceContextPropagator();
  private readonly current = new AsyncLocalStorage<Context>();
  /** The context of each sampled request's span (a request not sampled has none). */
  private readonly contexts = new WeakMap<FastifyRequest, Context>();
  private readonly routes = new Map<string, { name: string; template: string }>();
  private readonly sampler: Sampler;
  private readonly ids = new RandomIdGenerator();
  /** The trace id the sampler was asked about, for the SDK to give the sampled root span it then starts. */
  private decidedTraceId: string | undefined;
  private readonly attributeLimit: number;

  constructor(settings: TracingSettings, service: ServiceInfo, metrics: MetricsService, logger: Logger) {
    super();
    this.attributeLimit = settings.attributeValueLengthLimit;
    const exporterOptions = {
      url: settings.endpoint,
      headers: { ...settings.headers },
      timeoutMillis: settings.timeoutMs,
      concurrencyLimit: EXPORTS_IN_FLIGHT,
    };
    const delivery = new Delivery(metrics, logger, service, withoutCredentials(settings.endpoint!));
    const exporter = delivery.watch(
      settings.protocol === 'http/json' ? new JsonExporter(exporterOptions) : new ProtobufExporter(exporterOptions),
    );
    this.sampler = samplerOf(settings);
    this.provider = new TracerProvider({
      idGenerator: {
        generateTraceId: () => {
          const decided = this.decidedTraceId ?? this.ids.generateTraceId();
          this.decidedTraceId = undefined;
          return decided;
        },
        generateSpanId: () => this.ids.generateSpanId(),
      },
      resource: defaultResource().merge(
        resourceFromAttributes({
          'service.name': settings.serviceName ?? service.id,
          'service.version': service.release,
          ...settings.resource,
        }),
      ),
      sampler: this.sampler,
      spanLimits: { attributeValueLengthLimit: settings.attributeValueLengthLimit },
      spanProcessors: [
        new BatchSpanProcessor({
          exporter,
          maxQueueSize: settings.maxQueueSize,
          maxExportBatchSize: Math.min(512, settings.maxQueueSize),
          scheduledDelayMillis: settings.scheduleDelayMs,
          exportTimeoutMillis: settings.timeoutMs,
          selfObsMeterProvider: delivery.meterProvider(),
        }),
      ],
    });
    this.tracer = this.provider.getTracer(service.id, service.release);
  }

  readonly onRequest: onRequestHookHandler = (request, reply, done) => {
    this.start(request, reply);
    this.within(request, done);
  };

  readonly preHandler: preHandlerHookHandler = (request, _reply, done) => this.within(request, done);

  readonly onResponse: onResponseHookHandler = (request, reply, done) => {
    this.end(request, reply);
    done();
  };

  private start(request: FastifyRequest, reply: FastifyReply): void {
    const parent =
      request.headers.traceparent === undefined
        ? ROOT_CONTEXT
        : this.propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
    const route = request.is404 ? undefined : this.routeOf(request.method, request.routeOptions.url);
    const name = route?.name ?? request.method;
    // The sampler is asked first, so that a request not sampled (most of them, at a ratio) costs no span of the SDK:
    // only its ids. A sampled one's span then gets the same trace id, and the same answer from the sampler.
    const caller = trace.getSpanContext(parent);
    const traceId = caller?.traceId ?? this.ids.generateTraceId();
    const sampled = this.sampler.shouldSample(parent, traceId, name, SpanKind.SERVER, {}, []).decision;
    if (sampled === SamplingDecision.NOT_RECORD) return identify(request, reply, traceId, this.ids.generateSpanId(), 0);
    if (caller === undefined) this.decidedTraceId = traceId;
    const span = this.tracer.startSpan(name, { kind: SpanKind.SERVER }, parent);
    const { spanId, traceFlags } = span.spanContext();
    identify(request, reply, traceId, spanId, traceFlags);
    const attributes: Attributes = {
      'http.request.method': request.method,
      'url.path': this.capped(pathOf(request.url)),
      'url.scheme': request.protocol,
      'network.protocol.version': request.raw.httpVersion,
      'client.address': request.ip,
    };
    if (route !== undefined) attributes['http.route'] = route.template;
    const agent = request.headers['user-agent'];
    if (agent !== undefined) attributes['user_agent.original'] = this.capped(agent);
    span.setAttributes(attributes);
    this.contexts.set(request, trace.setSpan(parent, span));
  }

  /**
   * A client's text cut to the attribute length limit, as a string of its own: the SDK cuts it with a slice, which keeps
   * the whole header (16 KB) alive in every span waiting for export.
   */
  private capped(value: string): string {
    return value.length <= this.attributeLimit ? value : Buffer.from(value.slice(0, this.attributeLimit)).toString();
  }

  private within(request: FastifyRequest, next: () => void): void {
    const context = this.contexts.get(request);
    if (context === undefined) return next();
    this.current.run(context, next);
  }

  private end(request: FastifyRequest, reply: FastifyReply): void {
    const context = this.contexts.get(request);
    const span = context && trace.getSpan(context);
    if (!span) return;
    const status = reply.statusCode;
    span.setAttribute('http.response.status_code', status);
    if (request.caller !== undefined) span.setAttribute('petstore.api_key.name', request.caller);
    if (request.errorCode !== undefined) span.setAttribute('petstore.error.code', request.errorCode);
    if (status >= 500) {
      span.setAttribute('error.type', String(status));
      span.setStatus({ code: SpanStatusCode.ERROR, message: request.errorCode });
    }
    span.end();
  }

  span<T>(name: string, attributes: Readonly<Record<string, string | number>>, work: () => Promise<T>): Promise<T> {
    const parent = this.current.getStore();
    if (parent === undefined) return work();
    const span = this.tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent);
    return this.traced(span, parent, work);
  }

  /** `work` with `span` current, in `parent`'s context; the span ends as it settles. */
  private traced<T>(span: Span, parent: Context, work: () => Promise<T>): Promise<T> {
    return this.current.run(trace.setSpan(parent, span), work).then(
      (result) => {
        span.end();
        return result;
      },
      (error: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : undefined });
        span.end();
        throw error;
      },
    );
  }

  bind<T>(work: () => Promise<T>): () => Promise<T> {
    const context = this.current.getStore();
    return context === undefined ? work : () => this.current.run(context, work);
  }

  traceParent(): string | undefined {
    const context = this.current.getStore();
    const span = context && trace.getSpan(context);
    if (span === undefined) return undefined;
    const { traceId, spanId, traceFlags } = span.spanContext();
    return `00-${traceId}-${spanId}-0${traceFlags & 1}`;
  }

  linked<T>(
    name: string,
    traceParent: string | null,
    attributes: Readonly<Record<string, string | number>>,
    work: () => Promise<T>,
  ): Promise<T> {
    const publisher =
      traceParent === null
        ? undefined
        : trace.getSpanContext(
            this.propagator.extract(ROOT_CONTEXT, { traceparent: traceParent }, defaultTextMapGetter),
          );
    const links = publisher === undefined ? [] : [{ context: publisher }];
    const span = this.tracer.startSpan(name, { kind: SpanKind.CONSUMER, attributes, links }, ROOT_CONTEXT);
    if (!span.isRecording()) return work();
    return this.traced(span, ROOT_CONTEXT, work);
  }

  /** Sends the spans still queued, for at most {@link FLUSH_LIMIT_MS}, then stops. */
  async shutdown(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_LIMIT_MS)));
    await Promise.race([this.provider.shutdown().catch(() => undefined), limit]);
    clearTimeout(timer);
  }

  /**
   * The span's name and route template: Fastify's, `/v1/pets/:petId`, as the metrics and the log lines name the route
   * (OpenTelemetry's `http.route` is the template in the server framework's own format). The name worked out once.
   */
  private routeOf(method: string, url: string | undefined): { name: string; template: string } | undefined {
    if (url === undefined) return undefined;
    const key = `${method} ${url}`;
    let route = this.routes.get(key);
    if (route === undefined) this.routes.set(key, (route = { name: key, template: url }));
    return route;
  }
}

/**
 * The ids of a request's span: in its log line (`request.trace`), and in its answer's `traceresponse` (W3C Trace
 * Context Level 2) with whether the trace was sampled.
 */
function identify(request: FastifyRequest, reply: FastifyReply, traceId: string, spanId: string, flags: number): void {
  request.trace = { trace_id: traceId, span_id: spanId };
  reply.header('traceresponse', `00-${traceId}-${spanId}-0${flags & 1}`);
}

function samplerOf({ sampler, ratio }: TracingSettings): Sampler {
  const ratioSampler = new TraceIdRatioBasedSampler(ratio);
  switch (sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratioSampler;
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratioSampler });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * Whether spans reach the collector: those lost (dropped from a full queue,
 * or in an export the collector did not take) are counted in
 * `<service>_tracing_spans_dropped_total` and said in one warning line, not
 * one per span, until an export succeeds again (then one line that it does).
 */
class Delivery {
  private readonly dropped: PromCounter;
  private losing = false;

  constructor(
    metrics: MetricsService,
    private readonly logger: Logger,
    private readonly service: ServiceInfo,
    /** The collector's address as logged: without the credentials it may carry. */
    private readonly endpoint: string,
  ) {
    this.dropped = metrics.counter(
      'tracing_spans_dropped_total',
      'Spans not delivered to the OTLP collector: dropped from a full queue, or lost in a failed export.',
    );
  }

  delivered(): void {
    if (this.losing) this.logger.info({ context: 'Tracing' }, `spans are exported to ${this.endpoint} again`);
    this.losing = false;
  }

  lost(count: number, reason: string): void {
    this.dropped.inc(count);
    if (this.losing) return;
    this.losing = true;
    this.logger.warn(
      { context: 'Tracing', reason: withoutCredentials(reason) },
      `spans cannot be delivered to ${this.endpoint}: dropping them (counted in ${this.service.id}_tracing_spans_dropped_total) until the collector takes them again`,
    );
  }

  /** The exporter, telling each export's outcome. */
  watch(exporter: SpanExporter): SpanExporter {
    return {
      export: (spans, done) =>
        exporter.export(spans, (result) => {
          if (result.code === ExportResultCode.SUCCESS) this.delivered();
          else this.lost(spans.length, `export failed: ${result.error?.message ?? 'no reason given'}`);
          done(result);
        }),
      shutdown: () => exporter.shutdown(),
      forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
    };
  }

  /**
   * For the span processor's own count of the spans it finished
   * (OpenTelemetry's `otel.sdk.processor.span.processed`): those it dropped
   * from a full queue carry `error.type` `queue_full`.
   */
  meterProvider(): MeterProvider {
    const processed = {
      add: (count: number, attributes?: Attributes) => {
        if (attributes?.['error.type'] === 'queue_full') this.lost(count, 'the export queue is full');
      },
    } as Counter;
    const meter = createNoopMeter();
    meter.createCounter = () => processed;
    return { getMeter: () => meter };
  }
}
