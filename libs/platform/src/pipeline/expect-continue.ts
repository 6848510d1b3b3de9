import type { preParsingHookHandler } from 'fastify';
import { MAX_BODY_BYTES } from '../http/http-limits';

/**
 * Sends `100 Continue` to a client that asked for it (`Expect: 100-continue`) once its request has passed the steps
 * that come before the body (authentication, the rate limit). A body announced larger than the limit is not invited;
 * Fastify answers it 413 without reading it. Node's own automatic `100 Continue` is turned off (http-application.ts).
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
