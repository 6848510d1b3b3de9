import type { FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import { routeSettingsOf } from '../http/route-config';

/**
 * How often a caller may call: a port a capability provides (the rate-limit
 * library, when RATE_LIMIT_PER_MINUTE is above 0), as the auth module
 * provides the Authenticator. Without one, callers are not limited.
 */
export abstract class CallerLimit {
  /**
   * Counts the request against its caller (`request.caller`, set by
   * authentication) and resolves when it may go on, having set the answer's
   * headers; rejects with the error that refuses it.
   */
  abstract admit(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/**
 * The caller's limit, after authentication (the budget is the caller's) and
 * before the body is read: a refused request costs no parsing. Routes for
 * monitors (`@ForMonitors()`: health, metrics) and the documentation are
 * never limited.
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
