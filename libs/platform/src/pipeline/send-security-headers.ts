import type { onRequestHookHandler } from 'fastify';
import type { SecurityHeaders } from '../http/security-headers';
import { DOCS_PATH } from '../openapi/openapi';

/** Sends the security headers: the documentation page's on `/docs`, the API's on everything else. */
export function sendSecurityHeaders(headers: SecurityHeaders): onRequestHookHandler {
  return (request, reply, done) => {
    reply.headers(request.url.startsWith(DOCS_PATH) ? headers.docs : headers.api);
    done();
  };
}
