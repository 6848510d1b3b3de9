import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { pathOf, requestContext } from '../http/request-context';

export const APP_LOGGER = Symbol('APP_LOGGER');

/**
 * One JSON line per request, written when the response is done: id, method,
 * path (never the query string), route template, status, latency and the
 * caller (a stored key's name, or an API_KEYS key's fingerprint). Headers are never logged, so no credential can
 * reach a line. One plain pino call per request: pino-http's child logger per
 * request, middleware and async-local storage cost a fifth of a list
 * request's CPU (docs/decisions/0006-request-log-without-pino-http.md).
 */
@Injectable()
export class RequestLogHooks implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(APP_LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onResponse', (request, reply, done) => {
      done();
      const failed = reply.statusCode >= 500;
      if (!this.logger.isLevelEnabled(failed ? 'error' : 'info')) return;
      const { route, principal } = requestContext(request.raw);
      const line = {
        reqId: request.id,
        req: { id: request.id, method: request.method, path: pathOf(request.url) },
        route,
        caller: principal,
        res: { statusCode: reply.statusCode },
        responseTime: Math.round(reply.elapsedTime * 100) / 100,
      };
      if (failed) this.logger.error(line, 'request failed');
      else this.logger.info(line, 'request completed');
    });
  }
}
