import type { onResponseHookHandler } from 'fastify';
import type { Logger } from 'pino';
import { PLATFORM_ERROR_CODES } from '../errors/error-catalogue';
import { RefusalLog } from '../logging/refusal-log';
import { pathOf, routeTemplateOf } from '../http/request-state';

/**
 * 5xx answers that are the service doing what it should, logged below `error` so that an error-rate alert does not fire
 * on every deploy: readiness while shutting down (`debug`) and while a dependency is down (`warn`, the cause logged
 * where it was found).
 */
const LEVEL_OF_UNAVAILABLE: ReadonlyMap<string | undefined, 'debug' | 'warn'> = new Map([
  [PLATFORM_ERROR_CODES.shuttingDown, 'debug'],
  [PLATFORM_ERROR_CODES.notReady, 'warn'],
]);

/**
 * One JSON line per request, once answered: id, method, path (never the query string), route template, status, latency,
 * caller, and trace ids with tracing on. Headers are never logged, so no credential reaches a line. One plain pino
 * call: pino-http's cost on every request is decision 0006's reason. Refusals are bounded (RefusalLog).
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
