import type { onRequestHookHandler, onResponseHookHandler, preHandlerHookHandler } from 'fastify';

/**
 * Traces of requests: a port the tracing library provides when an OTLP endpoint is configured. Without one nothing of
 * tracing runs: no step, and no `span()` call (`tracing?.span(...)`).
 */
export abstract class RequestTracing {
  /**
   * The pipeline's first step: starts the request's span (continuing `traceparent`), sets `request.trace`, and keeps it
   * current until the body is read.
   */
  abstract readonly onRequest: onRequestHookHandler;

  /** Before the handler: the span current again (reading the body lost it), so the work it starts is its child. */
  abstract readonly preHandler: preHandlerHookHandler;

  /** Once the answer is sent: the span ends with its status, caller and error code. */
  abstract readonly onResponse: onResponseHookHandler;

  /** `work` as a child span of the request's (a statement, a Redis call); outside a sampled request, just `work`. */
  abstract span<T>(
    name: string,
    attributes: Readonly<Record<string, string | number>>,
    work: () => Promise<T>,
  ): Promise<T>;

  /** `work`, to run later elsewhere (in a batch of writes), still as part of the current request's span. */
  abstract bind<T>(work: () => Promise<T>): () => Promise<T>;

  /** The W3C `traceparent` of the current span, in a sampled request's work: for what outlives it (an event). */
  abstract traceParent(): string | undefined;

  /**
   * `work` as the first span of a trace of its own (an event's handling, after the request that published it ended),
   * linked to the span `traceParent` names; its statements are its children.
   */
  abstract linked<T>(
    name: string,
    traceParent: string | null,
    attributes: Readonly<Record<string, string | number>>,
    work: () => Promise<T>,
  ): Promise<T>;
}
