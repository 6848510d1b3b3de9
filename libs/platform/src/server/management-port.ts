import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { markAsManagement } from '../pipeline/management-routes';
import type { EdgeResponses } from '../http/edge-responses';

/**
 * MANAGEMENT_PORT: a second listener for monitors, so that health checks and
 * metrics can be kept off the port clients reach. Its requests go to the same
 * Fastify instance (`fastify.routing`), marked as management requests, and
 * take every step of the request pipeline the API's do; `/health/*` and
 * `/metrics` (`@ForMonitors()`) are then served there alone, and everything
 * else on the API's port alone (pipeline/management-routes.ts). It listens
 * once Fastify is ready, before the API's port, and closes with the
 * application: during a shutdown's drain it keeps answering, readiness 503.
 */
export function serveManagementPort(
  fastify: FastifyInstance,
  settings: NonNullable<AppConfig['management']>,
  config: Pick<AppConfig, 'timeouts'>,
  edge: EdgeResponses,
  logger: Logger,
): void {
  const server = createServer(
    {
      headersTimeout: config.timeouts.headersMs,
      requestTimeout: config.timeouts.requestMs,
      keepAliveTimeout: config.timeouts.keepAliveMs,
      requireHostHeader: false,
    },
    (request, response) => {
      markAsManagement(request);
      fastify.routing(request, response);
    },
  );
  server.on('clientError', edge.clientError);
  fastify.addHook('onReady', (done) => {
    server.once('error', done);
    server.listen(settings.port, settings.host, () => {
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
