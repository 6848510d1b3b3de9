import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { ConfigError } from '../config/config.error';
import { AppError } from '../errors/app-error';
import { PLATFORM_ERROR_CODES } from '../errors/error-catalogue';
import { routeSettingsOf } from '../http/route-config';
import { pathOf } from '../http/request-state';
import type { EdgeResponses } from './edge-responses';

/** Marks a request that arrived on the management port. */
const MANAGEMENT = Symbol('arrived on the management port');

type ManagementRequest = IncomingMessage & { [MANAGEMENT]?: true };

/**
 * `MANAGEMENT_PORT` (and `MANAGEMENT_HOST`, which defaults to `HOST`): a second listener for monitors, so that health
 * checks and metrics can be kept off the port clients reach. Its requests go to the same Fastify instance
 * (`fastify.routing`), marked as management requests, and take every step of the request pipeline the API's do. It
 * listens once Fastify is ready, before the API's port, and closes with the application: during a shutdown's drain it
 * keeps answering, readiness 503.
 */
export class ManagementPort {
  /** Its server, once `listen` has made it: bounded as the API's is (the pipeline's first step). */
  server?: Server;

  private constructor(
    readonly host: string,
    readonly port: number,
  ) {}

  /** Reads MANAGEMENT_PORT and MANAGEMENT_HOST; `undefined` when unset; throws a ConfigError naming the variable. */
  static of({ settings, host, port }: AppConfig): ManagementPort | undefined {
    const managementHost = settings.text('MANAGEMENT_HOST');
    if (settings.text('MANAGEMENT_PORT') === undefined) {
      if (managementHost !== undefined) throw new ConfigError('MANAGEMENT_HOST', 'needs MANAGEMENT_PORT');
      return undefined;
    }
    const managementPort = settings.integer('MANAGEMENT_PORT', 0, 0, 65535);
    if (managementPort === port && port !== 0) {
      throw new ConfigError('MANAGEMENT_PORT', `must differ from PORT (both ${port})`);
    }
    return new ManagementPort(managementHost ?? host, managementPort);
  }

  listen(fastify: FastifyInstance, edge: EdgeResponses, { timeouts }: AppConfig, logger: Logger): void {
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
      server.listen(this.port, this.host, () => {
        server.off('error', done);
        const { address, port } = server.address() as AddressInfo;
        logger.info({ context: 'Bootstrap' }, `health checks and metrics served at http://${address}:${port} alone`);
        done();
      });
    });
    fastify.addHook('onClose', (_instance, done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  }

  /** The pipeline's step: a monitors' route asked on the API's port, or any other on this one, is an unknown route. */
  readonly servesOnlyItsOwnPort: onRequestHookHandler = (request, _reply, done) => {
    const forMonitors = routeSettingsOf(request).management === true;
    const onManagementPort = (request.raw as ManagementRequest)[MANAGEMENT] === true;
    if (forMonitors === onManagementPort) return done();
    const path = pathOf(request.url);
    done(new AppError('not_found', PLATFORM_ERROR_CODES.routeNotFound, `no route for ${request.method} ${path}`));
  };
}
