import type { FastifyCorsOptions } from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '../config/app-config';
import { SharedContract } from '../http/shared-contract';
import { RouteIndex } from '../http/route-index';

/**
 * CORS for the origins of `CORS_ORIGINS`, allowing the methods the routes
 * serve. Those are known only once the modules have declared their routes,
 * after CORS is set up, so the options are worked out on the first request.
 */
export function allowCrossOrigin(app: NestFastifyApplication, config: AppConfig): void {
  const routes = app.get(RouteIndex);
  const shared = app.get(SharedContract);
  let options: FastifyCorsOptions | undefined;
  const corsOptions = (): FastifyCorsOptions => ({
    origin: config.corsOrigins.includes('*') ? '*' : [...config.corsOrigins],
    methods: routes.methods().filter((method) => method !== 'OPTIONS'),
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', ...shared.requestHeaders],
    exposedHeaders: [
      'Location',
      'X-Request-Id',
      'Retry-After',
      ...shared.answerHeaders,
      'Deprecation',
      'Sunset',
      'Link',
      'WWW-Authenticate',
    ],
    maxAge: 600,
  });
  app.enableCors({ delegator: (_request, callback) => callback(null, (options ??= corsOptions())) });
}
