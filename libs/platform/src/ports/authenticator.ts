import type { FastifyReply, FastifyRequest } from 'fastify';

/** How the pipeline checks a caller's credentials: the auth module provides it; the core only says when it runs. */
export abstract class Authenticator {
  /**
   * Calls `done()` once the caller is known (`request.caller`), or `done(error)` with the answer to give instead (401,
   * 429, or 503 when the check failed).
   */
  abstract authenticate(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void;
}
