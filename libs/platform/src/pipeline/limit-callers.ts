import type { preParsingHookHandler } from 'fastify';
import type { CallerLimit } from '../ports/caller-limit';
import { routeSettingsOf } from '../http/route-config';

/**
 * The caller's limit, after authentication (the budget is the caller's) and before the body is read: a refused request
 * costs no parsing. `@ForMonitors()` routes and the documentation are never limited.
 */
export function limitCallers(limit: CallerLimit): preParsingHookHandler {
  return (request, reply, payload, done) => {
    if (routeSettingsOf(request).notRateLimited) return done(null, payload);
    limit.admit(request, reply).then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  };
}
