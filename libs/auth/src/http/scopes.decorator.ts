import { applyDecorators, SetMetadata, type Type } from '@nestjs/common';
import { ApiExtension, ApiSecurity } from '@nestjs/swagger';
import { WithRouteSettings, routeSettingsOfHandler } from '@app/platform';
import { AREA, SCOPE } from '../domain/scope';

/** Where a route's own scope is kept (`@RequiresScope()`), for the bearer guard. */
export const SCOPE_METADATA = 'petstore:scope';

/** Where a controller's area is kept (`@Scoped()`): its routes need `<area>:read` or `<area>:write`. */
export const SCOPE_AREA_METADATA = 'petstore:scope-area';

/**
 * The document's mark of an operation whose scope follows from its area and method (the route's Fastify config has
 * the area too, as `scopeArea`), until the auth module's document
 * edit writes the scope in (auth.module.ts): the method is the document's to know.
 */
export const SCOPE_AREA_EXTENSION = 'x-scope-area';

/**
 * The scope the route needs: a key without it (or a pattern granting it) is answered 403 `insufficient_scope`. The
 * OpenAPI document states it in the operation's `security`, and as `x-scope`. Most routes take theirs from their
 * controller's `@Scoped()`; a route states another with this.
 */
export function RequiresScope(scope: string): MethodDecorator {
  if (!SCOPE.test(scope)) throw new Error(`@RequiresScope('${scope}'): a scope is <area>:read or <area>:write`);
  return applyDecorators(
    SetMetadata(SCOPE_METADATA, scope),
    // For the scopes there are, as Fastify declares the route (route-scopes.ts).
    WithRouteSettings({ scope }),
    ApiSecurity('bearer', [scope]),
    ApiExtension('x-scope', scope),
  );
}

/**
 * The scopes of a controller's routes: `<area>:read` for a GET (or HEAD), `<area>:write` for any other method, the
 * area the feature's name (`@Scoped('pets')`). A route marked `@RequiresScope()` keeps its own, one marked
 * `@Public()` needs none. Written once on the class, so a route added to it is covered.
 */
export function Scoped(area: string): ClassDecorator {
  if (!AREA.test(area)) throw new Error(`@Scoped('${area}'): an area is a feature's name, as pets or store`);
  return (target) => {
    SetMetadata(SCOPE_AREA_METADATA, area)(target);
    // The document: each route of the class that states no scope of its own is marked with the area.
    const prototype = (target as unknown as Type).prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      if (Reflect.getMetadata(SCOPE_METADATA, handler) !== undefined || routeSettingsOfHandler(handler).public)
        continue;
      const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
      ApiExtension(SCOPE_AREA_EXTENSION, area)(prototype, name, descriptor);
      WithRouteSettings({ scopeArea: area })(prototype, name, descriptor);
    }
  };
}
