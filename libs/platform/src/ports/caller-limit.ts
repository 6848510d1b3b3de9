import type { FastifyReply, FastifyRequest } from 'fastify';

/** How the document describes a header: its description and schema. */
export type HeaderDoc = { readonly description: string; readonly schema: { readonly type: string } };

/**
 * How often a caller may call: a port the rate-limit library provides when RATE_LIMIT_PER_MINUTE is above 0. The
 * pipeline runs it; the document and CORS take its headers from it.
 */
export abstract class CallerLimit {
  /** The headers {@link admit} sets on every answer after authentication, by name, as the document describes them. */
  abstract readonly headers: Readonly<Record<string, HeaderDoc>>;

  /**
   * Counts the request against `request.caller` and resolves when it may go on, its headers set; rejects with the error
   * that refuses it.
   */
  abstract admit(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}
