import { applyDecorators, RequestMethod, SetMetadata, type Type } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants';
import { ApiExtension, ApiSecurity } from '@nestjs/swagger';
import { routeSettingsOfHandler } from '@app/platform';
import { SCOPE } from '../domain/scope';

/** Where a route's scope is kept, for the bearer guard. */
export const SCOPE_METADATA = 'petstore:scope';

/** Every scope a route of the service needs, as the routes are declared: what a key's scopes are checked against. */
const declared = new Set<string>();

/** The scopes the service's routes need (their classes imported, so their decorators ran). */
export function declaredScopes(): ReadonlySet<string> {
  return declared;
}

/**
 * The scope the route needs: a key without it (or a pattern granting it) is answered 403 `insufficient_scope`. The
 * OpenAPI document states it in the operation's `security`, and as `x-scope`. Most routes take theirs from their
 * controller's `@Scoped()`; a route states another with this.
 */
export function RequiresScope(scope: string): MethodDecorator {
  if (!SCOPE.test(scope)) throw new Error(`@RequiresScope('${scope}'): a scope is <area>:read or <area>:write`);
  declared.add(scope);
  return applyDecorators(
    SetMetadata(SCOPE_METADATA, scope),
    ApiSecurity('bearer', [scope]),
    ApiExtension('x-scope', scope),
  );
}

const SAFE_METHODS: ReadonlySet<RequestMethod> = new Set([RequestMethod.GET, RequestMethod.HEAD]);

/**
 * The scopes of a controller's routes: `<area>:read` for a GET (or HEAD), `<area>:write` for any other method, the
 * area the feature's name (`@Scoped('pets')`). A route marked `@RequiresScope()` keeps its own, one marked
 * `@Public()` needs none. Written once on the class, so a route added to it is covered.
 */
export function Scoped(area: string): ClassDecorator {
  return (target) => {
    const prototype = (target as unknown as Type).prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined || Reflect.getMetadata(SCOPE_METADATA, handler) !== undefined) continue;
      if (routeSettingsOfHandler(handler).public) {
        continue;
      }
      const scope = `${area}:${SAFE_METHODS.has(method) ? 'read' : 'write'}`;
      RequiresScope(scope)(prototype, name, Object.getOwnPropertyDescriptor(prototype, name)!);
    }
  };
}
