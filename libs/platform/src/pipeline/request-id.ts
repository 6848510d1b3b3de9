import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { onRequestHookHandler } from 'fastify';

/** A caller's `X-Request-Id` is kept when it is a plain token of reasonable length. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the caller's `X-Request-Id` when sane, a new UUID otherwise. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/** Every answer names its request: `X-Request-Id` (the id Fastify took from {@link requestIdOf}). */
export const sendRequestId: onRequestHookHandler = (request, reply, done) => {
  reply.header('x-request-id', request.id);
  done();
};
