import { Injectable } from '@nestjs/common';
import { DiscoveryService, HttpAdapterHost, MetadataScanner, Reflector } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { routeScope } from '../domain/scope';
import { SCOPE_AREA_EXTENSION, SCOPE_AREA_METADATA, SCOPE_METADATA } from './scopes.decorator';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * The scopes the service's routes need: what a key's scopes are checked against (API_KEYS at start, `npm run keys`),
 * so that a typo never makes a key that can do nothing. Each route's, by its method and its controller's area
 * (`@Scoped()`) or its own (`@RequiresScope()`), as Fastify declares it (an `onRoute` hook, added as the module is
 * created, before any route). A tool that declares no route (`npm run keys`) reads the controllers through Nest's
 * discovery instead: an area's read and write scopes, and the routes' own.
 */
@Injectable()
export class RouteScopes {
  private readonly declared = new Set<string>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    host: HttpAdapterHost,
  ) {
    host.httpAdapter?.getInstance<FastifyInstance>().addHook('onRoute', (route) => {
      const { scope, scopeArea } = (route.config ?? {}) as { scope?: string; scopeArea?: string };
      for (const method of [route.method].flat()) {
        const needed = scope ?? routeScope(scopeArea, method);
        if (needed !== undefined) this.declared.add(needed);
      }
    });
  }

  all(): ReadonlySet<string> {
    return this.declared.size > 0 ? this.declared : this.ofControllers();
  }

  private ofControllers(): ReadonlySet<string> {
    const scopes = new Set<string>();
    for (const { metatype } of this.discovery.getControllers()) {
      if (!metatype) continue;
      const area = this.reflector.get<string | undefined>(SCOPE_AREA_METADATA, metatype);
      if (area !== undefined) scopes.add(`${area}:read`).add(`${area}:write`);
      const prototype = metatype.prototype as Record<string, () => unknown>;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const own = this.reflector.get<string | undefined>(SCOPE_METADATA, prototype[name]);
        if (typeof own === 'string') scopes.add(own);
      }
    }
    return scopes;
  }

  /**
   * The document's operations of an area (`@Scoped()`) with their scope written in, by their method: `security` and
   * `x-scope`, as `@RequiresScope()` writes them.
   */
  static describe(document: OpenAPIObject): void {
    for (const item of Object.values(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method] as (Record<string, unknown> & { security?: unknown }) | undefined;
        const area = operation?.[SCOPE_AREA_EXTENSION] as string | undefined;
        if (!operation || area === undefined) continue;
        delete operation[SCOPE_AREA_EXTENSION];
        const scope = routeScope(area, method.toUpperCase())!;
        operation.security = [{ bearer: [scope] }];
        operation['x-scope'] = scope;
      }
    }
  }
}
