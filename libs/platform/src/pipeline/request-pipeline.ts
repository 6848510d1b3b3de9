import type { Server } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { ErrorFilter } from '../http/error.filter';
import { Draining } from '../lifecycle/draining';
import { appLoggerOf } from '../logging/app-logger';
import { MetricsService } from '../metrics/metrics.service';
import { serveOnlyDocsAssets } from '../openapi/openapi';
import { Authenticator, authenticate } from './authenticate';
import { closeWhenDraining } from './close-when-draining';
import { countRequest } from './count-request';
import { limitCallers } from './limit-callers';
import { CallerLimit } from '../http/caller-limit';
import { ConnectionGuard } from '../http/connection-guard';
import { CrossOriginAccess } from '../http/cross-origin-access';
import { optionalProvider } from '../http/optional-provider';
import { sendContinue } from './expect-continue';
import { parseJsonBodies } from './json-body';
import { logRequest } from './log-request';
import { ManagementListener } from '../http/management-listener';
import { refuseMalformedHeaders } from './refuse-malformed-headers';
import { refuseUnroutable } from './refuse-unroutable';
import { sendRequestId } from './request-id';
import { RequestTracing } from '../http/request-tracing';
import { declareRequestState } from '../http/request-state';
import { SharedContract } from '../http/shared-contract';
import { SecurityHeaders } from '../http/security-headers';
import { sendSecurityHeaders } from './send-security-headers';

/**
 * The request pipeline: every step a request passes through, registered here in the order it runs. Each step is a named
 * function in a file of its own in this folder. A step that refuses the request (`done(error)` or a throw) ends it: the
 * error filter answers in the Error shape, and the steps from "as the answer leaves" on still run.
 */
export function installRequestPipeline(app: NestFastifyApplication, config: AppConfig): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  declareRequestState(fastify);

  // 1. The connection, before any request is read: the connection-limits library's bounds, on the API's port and on the
  //    monitors' (MANAGEMENT_PORT), which a client can reach as well.
  const management = optionalProvider(app, ManagementListener);
  const guard = optionalProvider(app, ConnectionGuard);
  for (const server of [app.getHttpServer() as Server, management?.server]) if (server) guard?.guard(server);

  // 2. The request line and headers have arrived, nothing of the body yet. With tracing on, its span starts first.
  const tracing = optionalProvider(app, RequestTracing);
  if (tracing) fastify.addHook('onRequest', tracing.onRequest);
  fastify.addHook('onRequest', sendRequestId);
  // The security-headers library's, unless SECURITY_HEADERS=off.
  const securityHeaders = optionalProvider(app, SecurityHeaders);
  if (securityHeaders) fastify.addHook('onRequest', sendSecurityHeaders(securityHeaders));
  // MANAGEMENT_PORT (the management-port library): health and metrics there alone, the rest on the API's port alone.
  if (management) fastify.addHook('onRequest', management.servesOnlyItsOwnPort);
  fastify.addHook('onRequest', refuseMalformedHeaders(app.get(SharedContract).singleValued));
  fastify.addHook('onRequest', refuseUnroutable);
  fastify.addHook('onRequest', serveOnlyDocsAssets);
  // CORS (the cors library, when CORS_ORIGINS is set): @fastify/cors adds its step as the app boots, after these.
  optionalProvider(app, CrossOriginAccess)?.allow(app);

  // 3. Before the body: who is calling, and may they call again this minute.
  fastify.addHook('preParsing', authenticate(authenticatorOf(app)));
  const callerLimit = optionalProvider(app, CallerLimit);
  if (callerLimit) fastify.addHook('preParsing', limitCallers(callerLimit));
  // Only now may a client waiting with `Expect: 100-continue` send its body.
  fastify.addHook('preParsing', sendContinue);

  // 4. The body: JSON in UTF-8 only, at most MAX_BODY_BYTES (Fastify's bodyLimit, set in http-application.ts).
  parseJsonBodies(fastify);

  // 5. Nest, for the route: its interceptors (`@Idempotent()`), the global pipe (the validation library's), the
  //    handler. Whatever any step throws is answered by the one error filter, in the Error shape.
  if (tracing) fastify.addHook('preHandler', tracing.preHandler);
  app.useGlobalFilters(app.get(ErrorFilter));

  // 6. As the answer leaves.
  fastify.addHook('onSend', closeWhenDraining(app.get(Draining)));

  // 7. Once it is sent.
  fastify.addHook('onResponse', logRequest(appLoggerOf(config)));
  if (tracing) fastify.addHook('onResponse', tracing.onResponse);
  if (config.metrics) fastify.addHook('onResponse', countRequest(app.get(MetricsService)));
}

/** The auth module's authenticator: without one, every route would be open, so the service does not start. */
function authenticatorOf(app: NestFastifyApplication): Authenticator {
  const authenticator = optionalProvider(app, Authenticator);
  if (!authenticator) throw new Error('no Authenticator is provided: the auth module must be among the features');
  return authenticator;
}
