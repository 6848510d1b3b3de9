import type { preParsingHookHandler } from 'fastify';
import type { Authenticator } from '../ports/authenticator';
import { routeSettingsOf } from '../http/route-config';

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
