import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { requestContext } from './request-context';

/**
 * First thing on every request: return its id in `X-Request-Id`, and record
 * its route template for the log line and the metrics.
 */
@Injectable()
export class RequestContextHooks implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // Callback-style hooks here and in the other per-request hooks: no promise per request.
    fastify.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      requestContext(request.raw).route = request.is404 ? 'unmatched' : request.routeOptions.url;
      done();
    });
  }
}
