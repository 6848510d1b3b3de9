import { RouteConfig } from '@nestjs/platform-fastify';
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

/** What the decorators of a route put in its config so far: each adds its own, so that several can share a route. */
const ROUTE_SETTINGS = Symbol('route settings');

/**
 * Adds `settings` to the route's Fastify config, given to Fastify through `@RouteConfig()` (each time with every
 * setting the route's decorators gave so far: unlike `@RouteConfig()` alone, several can share a route).
 */
export function WithRouteSettings(settings: RouteSettings & Record<string, unknown>): MethodDecorator {
  return (target, key, descriptor: PropertyDescriptor) => {
    const handler = descriptor.value as object;
    const merged = { ...routeSettingsOfHandler(handler), ...settings };
    Reflect.defineMetadata(ROUTE_SETTINGS, merged, handler);
    RouteConfig(merged)(target, key, descriptor);
  };
}

/** The settings a route's decorators gave its handler (`@Public()`, `@ForMonitors()`, `@Deprecated()`). */
export function routeSettingsOfHandler(handler: object): RouteSettings {
  return (Reflect.getMetadata(ROUTE_SETTINGS, handler) ?? {}) as RouteSettings;
}

export function routeSettingsOf(request: FastifyRequest): RouteSettings {
  return (request.routeOptions.config ?? {}) as RouteSettings;
}
