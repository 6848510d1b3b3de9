import type { onResponseHookHandler } from 'fastify';
import type { MetricsService } from '../metrics/metrics.service';
import { routeTemplateOf } from '../http/request-state';

/** Counts every answer and its latency by route template, method and status. */
export function countRequest(metrics: MetricsService): onResponseHookHandler {
  return (request, reply, done) => {
    metrics.observeRequest(routeTemplateOf(request), request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  };
}
