import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { routeSettingsOf, type DeprecationNotice } from './route-config';

/** Writes the headers of `@Deprecated()` routes, before anything else can answer. */
@Injectable()
export class DeprecationHeaders implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const cache = new WeakMap<DeprecationNotice, Record<string, string>>();
    fastify.addHook('onRequest', (request, reply, done) => {
      const notice = routeSettingsOf(request).deprecation;
      if (notice) {
        let headers = cache.get(notice);
        if (!headers) {
          headers = deprecationHeaders(notice);
          cache.set(notice, headers);
        }
        reply.headers(headers);
      }
      done();
    });
  }
}

export function deprecationHeaders(notice: DeprecationNotice): Record<string, string> {
  return {
    deprecation: `@${Math.floor(notice.since.getTime() / 1000)}`,
    sunset: notice.sunset.toUTCString(),
    link: `<${notice.successor}>; rel="successor-version"`,
  };
}
