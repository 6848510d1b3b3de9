import type { Server } from 'node:http';
import { DiscoveryService } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { allowCrossOrigin } from '../edge/cors';
import { EdgeSettings } from '../edge/edge.settings';
import { OperationContracts } from '../http/operation-contract';
import { declareRequestState } from '../http/request-state';
import { RouteIndex } from '../http/route-index';
import { Draining } from '../lifecycle/draining';
import { appLoggerOf } from '../logging/app-logger';
import { MetricsService } from '../metrics/metrics.service';
import { serveOnlyDocsAssets } from '../openapi/openapi';
import { RequestTracing } from '../ports/request-tracing';
import { closeWhenDraining } from './close-when-draining';
import { countRequest } from './count-request';
import { sendContinue } from './expect-continue';
import { parseJsonBodies } from './json-body';
import { logRequest } from './log-request';
import { refuseMalformedHeaders } from './refuse-malformed-headers';
import { refuseUnroutable } from './refuse-unroutable';
import { sendRequestId } from './request-id';

/**
 * The request pipeline: every step a request passes through, registered here in the order it runs. Each step is a named
 * function in a file of its own in this folder. A step that refuses the request (`done(error)` or a throw) ends it: the
 * error filter answers in the Error shape, and the steps from "as the answer leaves" on still run.
 */
export function installRequestPipeline(app: NestFastifyApplication, config: AppConfig): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  const edge = app.get(EdgeSettings);
  const logger = appLoggerOf(config);
  declareRequestState(fastify);
  // What the modules add to every operation: the headers they read and send (their @OperationContract()).
  const contracts = OperationContracts.discovered(app.get(DiscoveryService));

  // 1. The connection, before any request is read: the bounds on the API's port and on the monitors' (MANAGEMENT_PORT),
  //    which a client can reach as well (edge/connection-limits/).
  const servers = [app.getHttpServer() as Server, edge.management?.server].filter((server) => server !== undefined);
  edge.connections.guard(servers, app.get(MetricsService), logger, config.trustProxy);

  // 2. The request line and headers have arrived, nothing of the body yet. With tracing on, its span starts first.
  // The tracing module's port: `null` when tracing is off.
  const tracing = app.get<RequestTracing | null>(RequestTracing);
  if (tracing) fastify.addHook('onRequest', tracing.onRequest);
  fastify.addHook('onRequest', sendRequestId);
  // Unless SECURITY_HEADERS=off (edge/security-headers.ts).
  if (edge.securityHeaders) fastify.addHook('onRequest', edge.securityHeaders.send);
  // MANAGEMENT_PORT: health and metrics there alone, the rest on the API's port alone (edge/management-port.ts).
  if (edge.management) fastify.addHook('onRequest', edge.management.servesOnlyItsOwnPort);
  fastify.addHook('onRequest', refuseMalformedHeaders(contracts.singleValued));
  fastify.addHook('onRequest', refuseUnroutable);
  fastify.addHook('onRequest', serveOnlyDocsAssets);
  // CORS, when CORS_ORIGINS is set (edge/cors.ts): @fastify/cors adds its step as the app boots, after these.
  allowCrossOrigin(app, edge.cors, app.get(RouteIndex), contracts);

  //    Then the bearer key: the auth module's guard runs its authentication from a hook of this phase it adds itself
  //    as the application starts (auth.module.ts), after these.

  // 3. Before the body, once the caller is known: a client waiting with `Expect: 100-continue` may send it.
  fastify.addHook('preParsing', sendContinue);

  // 4. The body: JSON in UTF-8 only, at most MAX_BODY_BYTES (Fastify's bodyLimit, set in http-application.ts).
  parseJsonBodies(fastify);

  // 5. Nest, for the route: the global guards (the validation library's no-body guard, the rate limit's, the bearer
  //    guard's scope check), its interceptors (`@Idempotent()`), the global pipe (the validation library's), the
  //    handler. Whatever any step throws is answered by the one error filter (the platform's APP_FILTER), in the
  //    Error shape.
  if (tracing) fastify.addHook('preHandler', tracing.preHandler);

  // 6. As the answer leaves.
  fastify.addHook('onSend', closeWhenDraining(app.get(Draining)));

  // 7. Once it is sent.
  fastify.addHook('onResponse', logRequest(logger));
  if (tracing) fastify.addHook('onResponse', tracing.onResponse);
  if (config.metrics) fastify.addHook('onResponse', countRequest(app.get(MetricsService)));
}
