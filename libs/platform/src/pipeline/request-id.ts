import type { onRequestHookHandler } from 'fastify';

/** Every answer names its request: `X-Request-Id` (the id Fastify took from requestIdOf(), http/request-state.ts). */
export const sendRequestId: onRequestHookHandler = (request, reply, done) => {
  reply.header('x-request-id', request.id);
  done();
};
