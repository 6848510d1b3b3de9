import type { Server } from 'node:http';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { EdgeResponses } from './edge-responses';

/**
 * A second listener for monitors (MANAGEMENT_PORT): a port the management-port library provides. Its step serves
 * `@ForMonitors()` routes there alone, and everything else on the API's port alone.
 */
export abstract class ManagementListener {
  /** Listens once Fastify is ready, before the API's port, handing its requests to `fastify`; closes with it. */
  abstract listen(fastify: FastifyInstance, edge: EdgeResponses): void;

  /** Its server, once `listen` has made it: bounded as the API's is (the pipeline's first step). */
  abstract readonly server: Server | undefined;

  /** The request pipeline's step: a route asked on the wrong port is answered as an unknown one. */
  abstract readonly servesOnlyItsOwnPort: onRequestHookHandler;
}
