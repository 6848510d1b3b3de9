import type { Server, ServerOptions } from 'node:http';
import type { DynamicModule, LoggerService, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { appConfig, type AppConfig } from '../config/app-config';
import { SERVICE_INFO, type ServiceInfo } from '../config/service-info';
import { sendError } from '../errors/error-body';
import { fastifyErrorBody } from '../http/error.filter';
import { NestPinoLogger, appLoggerOf } from '../logging/app-logger';
import { MetricsService } from '../metrics/metrics.service';
import { setupOpenApi } from '../openapi/openapi';
import { MAX_BODY_BYTES, MAX_HEADER_BYTES } from '../http/http-limits';
import { EdgeResponses } from '../edge/edge-responses';
import { RouteIndex } from '../http/route-index';
import { installRequestPipeline } from '../pipeline/request-pipeline';
import { requestIdOf } from '../http/request-state';
import { EdgeSettings } from '../edge/edge.settings';

/**
 * The Nest application on Fastify with the contract's HTTP settings: `main.ts` and the e2e tests both make it here.
 * The server's own settings (Nest's `app` namespace) are read first, from the environment, for Fastify's options;
 * the application's modules read theirs as Nest creates them.
 */
export async function createHttpApplication(
  rootModule: Type | DynamicModule,
  options: { logger?: LoggerService | false } = {},
): Promise<NestFastifyApplication> {
  const config = appConfig();
  const edge = new EdgeResponses(appLoggerOf(config));
  const adapter = new FastifyAdapter({
    bodyLimit: MAX_BODY_BYTES,
    // Fastify's defaults, stated because the contract depends on them: a poisoned body is refused, not sanitised.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Requests that arrive while it closes are served, each with `Connection: close`, not given Fastify's own 503.
    return503OnClosing: false,
    genReqId: requestIdOf,
    // A path parameter may be as long as the request line allows (16 KiB, then 431): its pipe says what is wrong with
    // it, in the route's own answer (a 100-digit petId is a 400 with the deprecation headers, not a 414).
    routerOptions: { maxParamLength: MAX_HEADER_BYTES },
    // Whose X-Forwarded-For names the client (request.ip): nobody's unless TRUST_PROXY says so.
    trustProxy: trustProxyOf(config.trustProxy),
    // Requests Node's parser refuses (smuggling shapes, oversized headers, slow clients).
    clientErrorHandler: edge.clientError,
    // The router's refusals (a malformed URL), before any hook or filter runs, in the contract's shape too.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      const body = fastifyErrorBody(error);
      sendError(reply.headers(edge.securityHeaders).header('x-request-id', request.id), body);
      edge.recordRouterAnswer(request.id, request.method, request.url, body);
    },
    // Slow or stalled clients are cut off, checked every second (Node's default: 30 s). A request without Host is
    // answered by a step, in the Error shape (Node's own answer is an empty 400).
    http: {
      headersTimeout: config.timeouts.headersMs,
      requestTimeout: config.timeouts.requestMs,
      connectionsCheckingInterval: Math.min(1_000, config.timeouts.headersMs),
      requireHostHeader: false,
      // A request without Content-Length or Transfer-Encoding has no body: Node skips its stream's events (every GET),
      // and a flood of pipelined ones costs no abort each when its connection is closed (Node 24).
      optimizeEmptyRequests: true,
    } as ServerOptions,
    requestTimeout: config.timeouts.requestMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    connectionTimeout: config.timeouts.requestMs + config.timeouts.keepAliveMs,
  });
  const logger = options.logger ?? new NestPinoLogger(appLoggerOf(config));
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, {
    // Nest would add an urlencoded parser; Fastify's JSON parser is kept instead.
    bodyParser: false,
    abortOnError: false,
    logger,
    // Each module reads its settings as Nest creates it: Nest's lines wait until all are read, so that a bad variable
    // stops the start with one line naming it (main.ts's logStartupFailure), not after Nest's progress and its own
    // report of the error.
    bufferLogs: true,
    autoFlushLogs: false,
  });
  app.useLogger(logger);
  app.flushLogs();
  const edgeSettings = app.get(EdgeSettings);
  edge.countWith(app.get(MetricsService).countUnrouted);
  edge.securityHeaders = edgeSettings.securityHeaders?.api ?? {};
  const routes = app.get(RouteIndex);
  edge.allowWith(() => routes.methods().filter((method) => method !== 'OPTIONS'));
  const server = app.getHttpServer() as Server;
  server.on('checkExpectation', edge.expectationFailed);
  server.on('connect', edge.connectRefused);
  // No automatic `100 Continue`: the request pipeline sends it once the request has passed authentication and the rate
  // limit (pipeline/expect-continue.ts).
  server.on('checkContinue', (request, response) => server.emit('request', request, response));

  edgeSettings.management?.listen(app.getHttpAdapter().getInstance(), edge, config, appLoggerOf(config));
  installRequestPipeline(app, config);
  setupOpenApi(app, config, app.get<ServiceInfo>(SERVICE_INFO));
  return app;
}

/** TRUST_PROXY as Fastify takes it; a hop count as the function Fastify itself would make of it. */
function trustProxyOf(
  setting: AppConfig['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return typeof setting === 'boolean' ? setting : [...setting];
}
