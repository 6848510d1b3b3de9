import type { FastifyCorsOptions } from '@fastify/cors';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ConfigError } from '../config/config.error';
import type { Settings } from '../config/settings';
import { withoutCredentials } from '../config/without-credentials';
import type { RouteIndex } from '../http/route-index';
import type { OperationContracts } from '../http/operation-contract';

/** `CORS_ORIGINS`: the origins whose pages may call the API from a browser; empty turns CORS off, `*` allows any. */
export class CorsSettings {
  private constructor(readonly origins: readonly string[]) {}

  /** Reads and checks CORS_ORIGINS; throws a ConfigError naming it. */
  static of(settings: Settings): CorsSettings {
    return new CorsSettings(originsOf(settings));
  }
}

/**
 * CORS for the origins of `CORS_ORIGINS` (@fastify/cors), allowing the methods the routes serve and the headers the
 * contract shares. Those are known only once the modules have declared their routes, after CORS is set up, so the
 * options are worked out on the first request. Without origins nothing is installed, and browsers keep their
 * same-origin rule.
 */
export function allowCrossOrigin(
  app: NestFastifyApplication,
  { origins }: CorsSettings,
  routes: RouteIndex,
  contracts: OperationContracts,
): void {
  if (origins.length === 0) return;
  let options: FastifyCorsOptions | undefined;
  const optionsNow = (): FastifyCorsOptions => ({
    origin: origins.includes('*') ? '*' : [...origins],
    methods: routes.methods().filter((method) => method !== 'OPTIONS'),
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', ...contracts.requestHeaders],
    exposedHeaders: ['Location', 'X-Request-Id', 'Retry-After', ...contracts.answerHeaders, 'Link', 'WWW-Authenticate'],
    maxAge: 600,
  });
  app.enableCors({ delegator: (_request, callback) => callback(null, (options ??= optionsNow())) });
}

function originsOf(settings: Settings): string[] {
  const origins = settings.list('CORS_ORIGINS');
  if (origins.includes('*')) {
    if (origins.length > 1) throw new ConfigError('CORS_ORIGINS', 'must be * alone or a list of origins');
    return origins;
  }
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) {
      throw new ConfigError(
        'CORS_ORIGINS',
        `entries must be origins like https://app.example.com (got "${withoutCredentials(origin)}")`,
      );
    }
  }
  return origins;
}
