import type { FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import { routeSettingsOf } from '../http/route-config';

/**
 * How the pipeline checks a caller's credentials. The auth module provides it (`{ provide: Authenticator, useClass: ...
 * }`); the platform only says when it runs.
 */
export abstract class Authenticator {
  /**
   * Checks the request's credentials: calls `done()` once the caller is known (and recorded in `request.caller`), or
   * `done(error)` with the answer to give instead (401, 429, or a failure to check: 503).
   */
  abstract authenticate(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void;
}

/**
 * Every route needs a valid credential unless it is `@Public()`. Runs before the body is read (`preParsing`): an
 * unauthenticated caller gets its 401 before the service spends anything on its body
 * (docs/decisions/0002-authentication-before-parsing.md). An unknown route is answered 404 or 405 alike for everybody,
 * by the step before.
 */
export function authenticate(authenticator: Authenticator): preParsingHookHandler {
  return (request, reply, payload, done) => {
    if (routeSettingsOf(request).public) return done(null, payload);
    authenticator.authenticate(request, reply, (error) => (error ? done(error) : done(null, payload)));
  };
}
