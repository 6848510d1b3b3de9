import type { onRequestHookHandler } from 'fastify';
import { routeSettingsOf } from '../http/route-config';

/** The headers of `@Deprecated()` routes (`Deprecation`, `Sunset`, `Link`), on every answer they give, 401s included. */
export const sendDeprecationHeaders: onRequestHookHandler = (request, reply, done) => {
  const deprecation = routeSettingsOf(request).deprecation;
  if (deprecation) reply.headers(deprecation.headers);
  done();
};
