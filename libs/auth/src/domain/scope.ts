import { InvalidScopeError } from './api-key.errors';

/**
 * What an operation needs: `<area>:<access>`, its area a feature's name (`pets`, `store`) and its access `read` (safe
 * methods) or `write` (the others). Stripe's restricted keys and GitHub's fine-grained tokens work the same way.
 */
export const SCOPE = /^[a-z][a-z0-9-]*:(read|write)$/;

/** An area: a feature's name, as its scopes begin (`pets`, `store`). */
export const AREA = /^[a-z][a-z0-9-]*$/;

/** What a request to a route of `area` needs: `<area>:read` for a safe method (GET, HEAD), `<area>:write` for another. */
export function routeScope(area: string | undefined, method: string): string | undefined {
  if (area === undefined) return undefined;
  return method === 'GET' || method === 'HEAD' ? `${area}:read` : `${area}:write`;
}

/** What a key carries: a scope, or a pattern with `*` for the area or the access (`pets:*`, `*:read`), or `*`. */
const PATTERN = /^(?:\*|(?:\*|[a-z][a-z0-9-]*):(?:read|write|\*))$/;

/** Whether `text` is a pattern a key may carry (what it grants is checked against the routes by scopePatterns). */
export function isScopePattern(text: string): boolean {
  return PATTERN.test(text);
}

/**
 * The most a key's scopes may take written out, space-separated as stored (`auth_api_keys.scopes` holds 1,000
 * characters): dozens of modules' scopes, and fewer with `<area>:*` or `*:read`.
 */
export const SCOPES_MAX_LENGTH = 1_000;

/** Every scope: what a key has when none are given (every key made before scopes existed, a bare API_KEYS entry). */
export const EVERY_SCOPE: readonly string[] = ['*'];

/** Whether `patterns` (a key's) grant `needed` (an operation's). */
export function grants(patterns: readonly string[], needed: string): boolean {
  const colon = needed.indexOf(':');
  const area = needed.slice(0, colon);
  const access = needed.slice(colon + 1);
  return patterns.some(
    (pattern) =>
      pattern === needed ||
      pattern === '*' ||
      pattern === '*:*' ||
      pattern === `${area}:*` ||
      pattern === `*:${access}`,
  );
}

/**
 * A key's scopes as given (`pets:read+store:*`, or a list), each checked: a pattern that no operation of the service
 * needs is refused, naming the scopes there are, so that a typo never makes a key that can do nothing.
 */
export function scopePatterns(given: readonly string[], known: ReadonlySet<string>): string[] {
  if (given.length === 0) throw new InvalidScopeError('a key needs at least one scope');
  for (const pattern of given) {
    if (!isScopePattern(pattern)) {
      throw new InvalidScopeError(
        `"${pattern}" is not a scope: <area>:read, <area>:write, <area>:*, *:read, *:write or * (the areas: ${areasOf(known)})`,
      );
    }
    if (![...known].some((scope) => grants([pattern], scope))) {
      throw new InvalidScopeError(
        `"${pattern}" grants no operation of this service; its scopes are ${[...known].sort().join(', ')}`,
      );
    }
  }
  const patterns = [...new Set(given)];
  const length = patterns.join(' ').length;
  if (length > SCOPES_MAX_LENGTH) {
    throw new InvalidScopeError(
      `the scopes take ${length} characters, and a key holds ${SCOPES_MAX_LENGTH}: grant an area's with <area>:*, or every area's reads with *:read`,
    );
  }
  return patterns;
}

function areasOf(known: ReadonlySet<string>): string {
  return [...new Set([...known].map((scope) => scope.slice(0, scope.indexOf(':'))))].sort().join(', ');
}
