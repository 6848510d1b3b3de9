import type { IncomingMessage } from 'node:http';

/**
 * What the platform learns about a request while serving it, for the request
 * log line and the metrics. Kept on Node's request object, which every
 * Fastify hook reaches (`request.raw`).
 */
export interface RequestContext {
  /** The route template (`/v1/things/:thingId`), or `unmatched`. */
  route?: string;
  /** A non-secret identifier of the authenticated caller (an API key's fingerprint). */
  principal?: string;
}

const CONTEXT = Symbol('petstore.requestContext');

/**
 * Kept on the request object itself under a symbol of its own: a WeakMap
 * entry per request cost more (about 0.7 µs on a list request, and an
 * ephemeron for the garbage collector to trace).
 */
export function requestContext(raw: IncomingMessage): RequestContext {
  return ((raw as IncomingMessage & { [CONTEXT]?: RequestContext })[CONTEXT] ??= {});
}

/** The path of a request URL, without its query string (which may hold what does not belong in logs). */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
