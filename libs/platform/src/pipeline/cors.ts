import type { FastifyCorsOptions } from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '../config/app-config';
import { CallerLimit } from '../http/caller-limit';
import { optionalProvider } from '../http/optional-provider';
import { RouteIndex } from '../http/route-index';

/**
 * CORS for the origins of `CORS_ORIGINS`, allowing the methods the routes
 * serve. Those are known only once the modules have declared their routes,
 * after CORS is set up, so the options are worked out on the first request.
 */
export function allowCrossOrigin(app: NestFastifyApplication, config: AppConfig): void {
  const routes = app.get(RouteIndex);
  const limitHeaders = Object.keys(optionalProvider(app, CallerLimit)?.headers ?? {});
  let options: FastifyCorsOptions | undefined;
  const corsOptions = (): FastifyCorsOptions => ({
    origin: config.corsOrigins.includes('*') ? '*' : [...config.corsOrigins],
    methods: routes.methods().filter((method) => method !== 'OPTIONS'),
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Idempotency-Key'],
    exposedHeaders: [
      'Location',
      'X-Request-Id',
      'Idempotent-Replayed',
      'Retry-After',
      ...limitHeaders,
      'Deprecation',
      'Sunset',
      'Link',
      'WWW-Authenticate',
    ],
    maxAge: 600,
  });
  app.enableCors({ delegator: (_request, callback) => callback(null, (options ??= corsOptions())) });
}
