import type { FastifyReply, FastifyRequest } from 'fastify';

/** How the document describes a header: its description and schema. */
export type HeaderDoc = { readonly description: string; readonly schema: { readonly type: string } };

/**
 * How often a caller may call: a port a capability provides (the rate-limit library, when RATE_LIMIT_PER_MINUTE is
 * above 0), as the auth module provides the Authenticator. Without one, callers are not limited. The request pipeline
 * runs it (pipeline/limit-callers.ts); the document and CORS take its headers from it.
 */
export abstract class CallerLimit {
  /** The headers {@link admit} sets on every answer after authentication, by name, as the document describes them. */
  abstract readonly headers: Readonly<Record<string, HeaderDoc>>;

  /**
   * Counts the request against its caller (`request.caller`, set by authentication) and resolves when it may go on,
   * having set the answer's headers; rejects with the error that refuses it.
   */
  abstract admit(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}
