import type { preParsingHookHandler } from 'fastify';
import { MAX_BODY_BYTES } from '../http/http-limits';

/**
 * `100 Continue` for `Expect: 100-continue`, once the request has passed authentication and the rate limit; a body
 * announced past the limit is not invited (Fastify answers it 413 unread). Node's own is off (http-application.ts).
 */
export const sendContinue: preParsingHookHandler = (request, reply, payload, done) => {
  if (
    request.headers.expect?.toLowerCase() === '100-continue' &&
    Number(request.headers['content-length'] ?? 0) <= MAX_BODY_BYTES
  ) {
    reply.raw.writeContinue();
  }
  done(null, payload);
};
