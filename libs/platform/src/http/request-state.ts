import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** A caller's `X-Request-Id` is kept when it is a plain token of reasonable length. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the caller's `X-Request-Id` when sane, a new UUID otherwise. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Who made the request, never a secret (a key's name, or API_KEYS#n): set by authentication; `undefined` on public
     * routes and refused requests.
     */
    caller: string | undefined;
    /**
     * The scopes the caller's key grants (`pets:read`, `store:*`, `*`), set with `caller` by authentication; the
     * bearer guard checks each operation's against them.
     */
    scopes: readonly string[] | undefined;
    /** The `code` of the Error answer, set by the error filter; `undefined` otherwise. Read by the log line. */
    errorCode: string | undefined;
    /** The request's trace and span ids, when tracing is on (RequestTracing): in its log line. */
    trace: { readonly trace_id: string; readonly span_id: string } | undefined;
  }
}

/** The state a request carries, declared so that Fastify gives every request object one shape from the start. */
export function declareRequestState(fastify: FastifyInstance): void {
  fastify.decorateRequest('caller', undefined);
  fastify.decorateRequest('scopes', undefined);
  fastify.decorateRequest('errorCode', undefined);
  fastify.decorateRequest('trace', undefined);
}

/** The route template a request matched (`/v1/things/:thingId`), or `unmatched`: a bounded label. */
export function routeTemplateOf(request: FastifyRequest): string {
  return request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
}

/** The path of a request URL, without its query string (which may hold what does not belong in logs). */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
