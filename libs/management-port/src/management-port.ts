import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { Logger } from 'pino';
import {
  APP_LOGGER,
  AppConfig,
  AppError,
  ManagementListener,
  PLATFORM_ERROR_CODES,
  pathOf,
  routeSettingsOf,
  type EdgeResponses,
} from '@app/platform';
import { ManagementPortSettings } from './management-port.settings';

/** Marks a request that arrived on the management port. */
const MANAGEMENT = Symbol('arrived on the management port');

type ManagementRequest = IncomingMessage & { [MANAGEMENT]?: true };

/**
 * MANAGEMENT_PORT: a second listener for monitors, so that health checks and
 * metrics can be kept off the port clients reach. Its requests go to the same
 * Fastify instance (`fastify.routing`), marked as management requests, and
 * take every step of the request pipeline the API's do. It listens once
 * Fastify is ready, before the API's port, and closes with the application:
 * during a shutdown's drain it keeps answering, readiness 503.
 */
@Injectable()
export class ManagementPort extends ManagementListener {
  constructor(
    private readonly settings: ManagementPortSettings,
    private readonly config: AppConfig,
    @Inject(APP_LOGGER) private readonly logger: Logger,
  ) {
    super();
  }

  server: Server | undefined;

  listen(fastify: FastifyInstance, edge: EdgeResponses): void {
    const { timeouts } = this.config;
    const server = createServer(
      {
        headersTimeout: timeouts.headersMs,
        requestTimeout: timeouts.requestMs,
        keepAliveTimeout: timeouts.keepAliveMs,
        requireHostHeader: false,
      },
      (request, response) => {
        (request as ManagementRequest)[MANAGEMENT] = true;
        fastify.routing(request, response);
      },
    );
    server.on('clientError', edge.clientError);
    this.server = server;
    fastify.addHook('onReady', (done) => {
      server.once('error', done);
      server.listen(this.settings.port, this.settings.host, () => {
        server.off('error', done);
        const { address, port } = server.address() as AddressInfo;
        this.logger.info(
          { context: 'Bootstrap' },
          `health checks and metrics served at http://${address}:${port} alone`,
        );
        done();
      });
    });
    fastify.addHook('onClose', (_instance, done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  }

  /** A monitors' route asked on the API's port, or any other on this one: 404 `route_not_found`, no key asked for. */
  readonly servesOnlyItsOwnPort: onRequestHookHandler = (request, _reply, done) => {
    const forMonitors = routeSettingsOf(request).management === true;
    const onManagementPort = (request.raw as ManagementRequest)[MANAGEMENT] === true;
    if (forMonitors === onManagementPort) return done();
    const path = pathOf(request.url);
    done(new AppError('not_found', PLATFORM_ERROR_CODES.routeNotFound, `no route for ${request.method} ${path}`));
  };
}
