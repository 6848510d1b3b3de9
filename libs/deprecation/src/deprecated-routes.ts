import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, onRequestHookHandler, onResponseHookHandler } from 'fastify';
import { AppConfig, MetricsService, SharedContract } from '@app/platform';
import type { DeprecatedRoute } from './deprecated.decorator';
import { describeDeprecations } from './deprecation.document';

type Hooks<T> = T | T[] | undefined;
const hooksOf = <T>(hooks: Hooks<T>): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/**
 * Gives each `@Deprecated()` route, as it is declared, two steps of its own
 * (Fastify's route-level hooks, which run after the request pipeline's steps
 * of the same kind): its headers on every answer it gives, 401s included,
 * and, with metrics on, its calls counted by caller, so that operators see who
 * must migrate before the sunset. Created before the routes are declared.
 */
@Injectable()
export class DeprecatedRoutes {
  constructor(host: HttpAdapterHost, shared: SharedContract, metrics: MetricsService, config: AppConfig) {
    shared.sends('Deprecation', 'Sunset').describes(describeDeprecations);
    const calls = config.metrics
      ? metrics.counter(
          'deprecated_operation_calls_total',
          'Calls to deprecated operations, by operation, sunset date and caller (the name of the API key, API_KEYS#n for an unnamed key of API_KEYS, or "anonymous").',
          ['operation', 'sunset', 'caller'],
        )
      : undefined;
    host.httpAdapter.getInstance<FastifyInstance>().addHook('onRoute', (route) => {
      const { deprecation } = (route.config ?? {}) as { deprecation?: DeprecatedRoute };
      if (!deprecation) return;
      const sendHeaders: onRequestHookHandler = (_request, reply, done) => {
        reply.headers(deprecation.headers);
        done();
      };
      route.onRequest = [...hooksOf(route.onRequest), sendHeaders];
      if (!calls) return;
      const labels = { operation: deprecation.operationId, sunset: deprecation.sunsetDay };
      const countCall: onResponseHookHandler = (request, _reply, done) => {
        calls.inc({ ...labels, caller: request.caller ?? 'anonymous' });
        done();
      };
      route.onResponse = [...hooksOf(route.onResponse), countCall];
    });
  }
}
