import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { routeSettingsOf } from './route-config';

/** Writes the headers of `@Deprecated()` routes, before anything else can answer. */
@Injectable()
export class DeprecationHeaders implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onRequest', (request, reply, done) => {
      const deprecation = routeSettingsOf(request).deprecation;
      if (deprecation) reply.headers(deprecation.headers);
      done();
    });
  }
}
