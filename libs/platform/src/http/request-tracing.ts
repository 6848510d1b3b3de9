import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Traces of requests: a port the tracing library provides when an OTLP endpoint is configured, as the auth module
 * provides the Authenticator. Without one nothing of tracing runs: the pipeline adds no step, and a capability's
 * `span()` call is not made (`tracing?.span(...)`).
 */
export abstract class RequestTracing {
  /**
   * Starts the request's span, continuing the caller's trace context (`traceparent`), and sets `request.trace`; the
   * pipeline's first step.
   */
  abstract start(request: FastifyRequest, reply: FastifyReply): void;

  /** Runs `next` with the request's span current, so that the work it starts is the span's child. */
  abstract within(request: FastifyRequest, next: () => void): void;

  /** Ends the request's span with its answer's status, caller and error code. */
  abstract end(request: FastifyRequest, reply: FastifyReply): void;

  /**
   * Runs `work` as a child span of the current request's (a statement, a Redis call), named `name`; outside a sampled
   * request, just runs it.
   */
  abstract span<T>(
    name: string,
    attributes: Readonly<Record<string, string | number>>,
    work: () => Promise<T>,
  ): Promise<T>;

  /** `work`, to run later elsewhere (in a batch of writes), still as part of the current request's span. */
  abstract bind<T>(work: () => Promise<T>): () => Promise<T>;
}
