import type { onResponseHookHandler } from 'fastify';
import type { Logger } from 'pino';
import { PLATFORM_ERROR_CODES } from '../errors/error-catalogue';
import { RefusalLog } from '../logging/refusal-log';
import { pathOf, routeTemplateOf } from '../http/request-state';

/**
 * 5xx answers that are the service doing what it should, logged below `error` so that an alert on the error rate does
 * not fire on every deploy: readiness during a shutdown (`debug`: the shutdown says so once, at `info`, as it starts)
 * and readiness while the database or the keys cannot be read (`warn`: the cause is logged where it was found).
 */
const LEVEL_OF_UNAVAILABLE: ReadonlyMap<string | undefined, 'debug' | 'warn'> = new Map([
  [PLATFORM_ERROR_CODES.shuttingDown, 'debug'],
  [PLATFORM_ERROR_CODES.notReady, 'warn'],
]);

/**
 * One JSON line per request, written when the response is done: id, method, path (never the query string), route
 * template, status, latency and the caller (a key's name, or an unnamed API_KEYS key's place, API_KEYS#n), and
 * `trace_id` and `span_id` when tracing is on. Headers are never logged, so no credential can reach a line. One plain
 * pino call per request: pino-http's child logger per request, middleware and async-local storage cost a fifth of a
 * list request's CPU (docs/decisions/0006-request-log-without-pino-http.md). Lines about refused requests are bounded
 * (RefusalLog): a client cannot fill the log.
 */
export function logRequest(logger: Logger): onResponseHookHandler {
  const refusals = RefusalLog.of(logger);
  return (request, reply, done) => {
    done();
    const failed = reply.statusCode >= 500;
    const level = failed ? (LEVEL_OF_UNAVAILABLE.get(request.errorCode) ?? 'error') : 'info';
    if (!logger.isLevelEnabled(level) || !refusals.admits(reply.statusCode)) return;
    const line: Record<string, unknown> = {
      reqId: request.id,
      req: { id: request.id, method: request.method, path: pathOf(request.url) },
      route: routeTemplateOf(request),
      caller: request.caller,
      res: { statusCode: reply.statusCode },
      responseTime: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (request.trace !== undefined) Object.assign(line, request.trace);
    logger[level](line, failed ? 'request failed' : 'request completed');
  };
}
