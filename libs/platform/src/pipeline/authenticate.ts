import type { FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import { routeSettingsOf } from '../http/route-config';

/** How the pipeline checks a caller's credentials: the auth module provides it; the core only says when it runs. */
export abstract class Authenticator {
  /**
   * Calls `done()` once the caller is known (`request.caller`), or `done(error)` with the answer to give instead (401,
   * 429, or 503 when the check failed).
   */
  abstract authenticate(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void;
}

/**
 * Every route but a `@Public()` one needs a valid credential, checked before the body is read: an unauthenticated
 * caller costs no parsing (decision 0002). Unknown routes were answered 404 or 405 alike by the step before.
 */
export function authenticate(authenticator: Authenticator): preParsingHookHandler {
  return (request, reply, payload, done) => {
    if (routeSettingsOf(request).public) return done(null, payload);
    authenticator.authenticate(request, reply, (error) => (error ? done(error) : done(null, payload)));
  };
}
