import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { FastifyRequest } from 'fastify';

/**
 * Settings a route carries into Fastify's own route config, where the request
 * pipeline's steps that run before Nest (authentication, the rate limit, deprecation
 * headers) can read them.
 */
export interface RouteSettings {
  /** Served without credentials. */
  public?: boolean;
  /** Not counted against any rate limit. */
  notRateLimited?: boolean;
  /** Served on the management port when MANAGEMENT_PORT is set, and only there (health checks, metrics). */
  management?: boolean;
  deprecation?: DeprecatedRoute;
}

/** What a deprecated route carries, worked out once when the route is declared. */
export interface DeprecatedRoute {
  operationId: string;
  /** The sunset day (`2030-12-05`), a metrics label. */
  sunsetDay: string;
  /** `Deprecation`, `Sunset` and `Link`, for every response. */
  headers: Readonly<Record<string, string>>;
}

export interface DeprecationNotice {
  /** The operation's name in the contract (`getThing`), for metrics. */
  operationId: string;
  /** When the operation was deprecated (RFC 9745 `Deprecation`). */
  since: Date;
  /** When it stops being served (RFC 8594 `Sunset`). */
  sunset: Date;
  /** The path of the operation that replaces it, relative to the API prefix (`/things`). */
  successor: string;
}

/**
 * Adds `settings` to the route's Fastify config. Unlike `@RouteConfig()`, which
 * replaces the whole config, several of these decorators can share a route.
 */
export function WithRouteSettings(settings: RouteSettings): MethodDecorator {
  return (_target, _key, descriptor: PropertyDescriptor) => {
    const handler = descriptor.value as object;
    const current = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as RouteSettings;
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...current, ...settings }, handler);
  };
}

export function routeSettingsOf(request: FastifyRequest): RouteSettings {
  return (request.routeOptions.config ?? {}) as RouteSettings;
}
