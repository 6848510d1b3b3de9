import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { FastifyInstance, onResponseHookHandler, onSendHookHandler } from 'fastify';
import { AppConfig, MetricsService, OperationContract, PLATFORM_ERROR_CODES } from '@app/platform';
import type { DeprecatedRoute } from './deprecated.decorator';
import { describeDeprecations } from './deprecation.document';

type Hooks<T> = T | T[] | undefined;
const hooksOf = <T>(hooks: Hooks<T>): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/**
 * Gives each `@Deprecated()` route, as it is declared, two steps of its own
 * (Fastify's route-level hooks): its headers on every answer it gives, as the
 * answer leaves (`onSend`: 401s and every other refusal included, whichever
 * step gave it), and, with metrics on, its calls counted by caller, so that
 * operators see who must migrate before the sunset. Created before the routes
 * are declared. Its headers are in the contract of every operation (CORS exposes them), and the document says which
 * operations are deprecated.
 */
@Injectable()
@OperationContract()
export class DeprecatedRoutes implements OperationContract {
  readonly sends: readonly string[] = ['Deprecation', 'Sunset'];

  constructor(host: HttpAdapterHost, metrics: MetricsService, config: AppConfig) {
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
      const sendHeaders: onSendHookHandler = (request, reply, payload, done) => {
        // A path the router matched to the route but no operation serves (`/v1/pets/`, an empty id) is not the route's.
        if (request.errorCode === PLATFORM_ERROR_CODES.routeNotFound) return done(null, payload);
        for (const [name, value] of Object.entries(deprecation.headers)) {
          // The successor's Link joins any the answer has (a page's next).
          const given = name === 'link' ? reply.getHeader('link') : undefined;
          reply.header(name, given === undefined ? value : `${String(given)}, ${value}`);
        }
        done(null, payload);
      };
      route.onSend = [...hooksOf(route.onSend), sendHeaders];
      if (!calls) return;
      const labels = { operation: deprecation.operationId, sunset: deprecation.sunsetDay };
      const countCall: onResponseHookHandler = (request, _reply, done) => {
        calls.inc({ ...labels, caller: request.caller ?? 'anonymous' });
        done();
      };
      route.onResponse = [...hooksOf(route.onResponse), countCall];
    });
  }

  describe(document: OpenAPIObject): void {
    describeDeprecations(document);
  }
}
