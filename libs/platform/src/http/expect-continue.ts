import type { FastifyReply, FastifyRequest } from 'fastify';
import { MAX_BODY_BYTES } from './http-limits';

/**
 * Sends `100 Continue` to a client that asked for it (`Expect: 100-continue`)
 * once its request has passed the gates that come before the body: call it
 * when authentication has accepted the request. A body announced larger than
 * the limit is not invited; Fastify answers it 413 without reading it. Node's
 * own automatic `100 Continue` is turned off (http-application.ts).
 */
export function continueIfExpected(request: FastifyRequest, reply: FastifyReply): void {
  if (request.headers.expect?.toLowerCase() !== '100-continue') return;
  if (Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return;
  reply.raw.writeContinue();
}
