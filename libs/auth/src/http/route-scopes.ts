import { Injectable } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { routeScope } from '../domain/scope';
import { SCOPE_AREA_EXTENSION, SCOPE_AREA_METADATA, SCOPE_METADATA } from './scopes.decorator';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * The scopes the service's routes need, read from its controllers through Nest's discovery: what a key's scopes are
 * checked against (API_KEYS at start, `npm run keys`), so that a typo never makes a key that can do nothing. An area
 * (`@Scoped()`) needs its read and its write scope; a route may state one of its own (`@RequiresScope()`).
 */
@Injectable()
export class RouteScopes {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  all(): ReadonlySet<string> {
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
