import { Injectable, NotFoundException, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/app-error';
import { PLATFORM_ERROR_CODES } from '../errors/error-catalogue';
import { requestContext } from './request-context';

/**
 * First thing on every request: return its id in `X-Request-Id`, and record
 * its route template for the log line and the metrics. Then refuse at once
 * what no route will take, before a byte of its body is read: an HTTP/1.1
 * request without `Host` (400), and an unknown path or method, however its
 * body is labelled (404, or 405 with `Allow`, from the error filter).
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
      if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
        return done(
          new AppError('invalid', PLATFORM_ERROR_CODES.badRequest, 'an HTTP/1.1 request must carry a Host header'),
        );
      }
      if (request.is404) return done(new NotFoundException());
      done();
    });
  }
}
