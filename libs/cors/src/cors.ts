import { Injectable } from '@nestjs/common';
import type { FastifyCorsOptions } from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CrossOriginAccess, RouteIndex, SharedContract } from '@app/platform';
import { CorsSettings } from './cors.settings';

/**
 * The core's CrossOriginAccess: CORS for the origins of `CORS_ORIGINS`,
 * allowing the methods the routes serve and the headers the contract shares.
 * Those are known only once the modules have declared their routes, after
 * CORS is set up, so the options are worked out on the first request.
 */
@Injectable()
export class Cors extends CrossOriginAccess {
  constructor(
    private readonly settings: CorsSettings,
    private readonly routes: RouteIndex,
    private readonly shared: SharedContract,
  ) {
    super();
  }

  allow(app: NestFastifyApplication): void {
    let options: FastifyCorsOptions | undefined;
    app.enableCors({ delegator: (_request, callback) => callback(null, (options ??= this.options())) });
  }

  private options(): FastifyCorsOptions {
    const { origins } = this.settings;
    return {
      origin: origins.includes('*') ? '*' : [...origins],
      methods: this.routes.methods().filter((method) => method !== 'OPTIONS'),
      allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', ...this.shared.requestHeaders],
      exposedHeaders: [
        'Location',
        'X-Request-Id',
        'Retry-After',
        ...this.shared.answerHeaders,
        'Link',
        'WWW-Authenticate',
      ],
      maxAge: 600,
    };
  }
}
