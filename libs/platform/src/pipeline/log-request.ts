import type { onResponseHookHandler } from 'fastify';
import type { Logger } from 'pino';
import { RefusalLog } from '../logging/refusal-log';
import { pathOf, routeTemplateOf } from './request-state';

/**
 * One JSON line per request, written when the response is done: id, method,
 * path (never the query string), route template, status, latency and the
 * caller (a key's name, or an unnamed API_KEYS key's place, API_KEYS#n). Headers are
 * never logged, so no credential can reach a line. One plain pino call per
 * request: pino-http's child logger per request, middleware and async-local
 * storage cost a fifth of a list request's CPU
 * (docs/decisions/0006-request-log-without-pino-http.md). Lines about
 * refused requests are bounded (RefusalLog): a client cannot fill the log.
 */
export function logRequest(logger: Logger): onResponseHookHandler {
  const refusals = RefusalLog.of(logger);
  return (request, reply, done) => {
    done();
    const failed = reply.statusCode >= 500;
    if (!logger.isLevelEnabled(failed ? 'error' : 'info') || !refusals.admits(reply.statusCode)) return;
    const line = {
      reqId: request.id,
      req: { id: request.id, method: request.method, path: pathOf(request.url) },
      route: routeTemplateOf(request),
      caller: request.caller,
      res: { statusCode: reply.statusCode },
      responseTime: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (failed) logger.error(line, 'request failed');
    else logger.info(line, 'request completed');
  };
}
