import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { FastifyRequest } from 'fastify';

/**
 * Settings a route carries into Fastify's route config, for the pipeline's steps before Nest (authentication, the rate
 * limit); a capability may add its own (`@Deprecated()`).
 */
export interface RouteSettings {
  /** Served without credentials. */
  public?: boolean;
  /** Not counted against any rate limit. */
  notRateLimited?: boolean;
  /** Served on the management port when MANAGEMENT_PORT is set, and only there (health checks, metrics). */
  management?: boolean;
}

/** Adds `settings` to the route's Fastify config; unlike `@RouteConfig()`, several can share a route. */
export function WithRouteSettings(settings: RouteSettings & Record<string, unknown>): MethodDecorator {
  return (_target, _key, descriptor: PropertyDescriptor) => {
    const handler = descriptor.value as object;
    const current = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as RouteSettings;
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...current, ...settings }, handler);
  };
}

export function routeSettingsOf(request: FastifyRequest): RouteSettings {
  return (request.routeOptions.config ?? {}) as RouteSettings;
}
