import type { AddressInfo } from 'node:net';
import { NotFoundException, type ArgumentsHost } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ErrorFilter } from '../../libs/platform/src/http/error.filter';
import { MAX_BODY_BYTES } from '../../libs/platform/src/http/http-limits';
import { declareRequestState, requestIdOf } from '../../libs/platform/src/http/request-state';
import { RouteIndex } from '../../libs/platform/src/http/route-index';
import { FailureTranslations, type FailureTranslator } from '../../libs/platform/src/http/failure-translator';

/** The ArgumentsHost Nest gives a filter, for one Fastify request. */
export function hostOf(request: FastifyRequest, reply: FastifyReply): ArgumentsHost {
  return { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) } as ArgumentsHost;
}

/**
 * A bare Fastify server for the core's specs: the request state and the request ids the application declares, and
 * the core's one error filter answering whatever a step or a route fails with, as Nest's adapter has it do (Fastify's
 * own 4xx errors mapped by the adapter first). Only the steps a spec registers run; `listen()` serves it on 127.0.0.1
 * for a raw client.
 */
export function withErrorFilter(options: { routes?: RouteIndex; translators?: FailureTranslator[] } = {}): {
  fastify: FastifyInstance;
  filter: ErrorFilter;
  listen(): Promise<number>;
} {
  // As the application: a request without Host reaches the steps, which answer it in the Error shape.
  const fastify = Fastify({ genReqId: requestIdOf, bodyLimit: MAX_BODY_BYTES, http: { requireHostHeader: false } });
  declareRequestState(fastify);
  const filter = new ErrorFilter(
    options.routes ?? new RouteIndex(),
    new FailureTranslations(() => options.translators ?? []),
  );
  const nest = new FastifyAdapter();
  fastify.setErrorHandler((error, request, reply) => filter.catch(nest.mapException(error), hostOf(request, reply)));
  fastify.setNotFoundHandler((request, reply) => filter.catch(new NotFoundException(), hostOf(request, reply)));
  return {
    fastify,
    filter,
    async listen() {
      await fastify.listen({ port: 0, host: '127.0.0.1' });
      return (fastify.server.address() as AddressInfo).port;
    },
  };
}
