import type { OpenAPIObject } from '@nestjs/swagger';
import { operationsOf } from '@app/platform';

/** The headers the guard sends on every answer it counted, as the document describes them. */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: 'Requests allowed per minute for this API key.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
} as const;

/**
 * Answered before the guard counts the request: a missing or wrong key (the auth module's hook, before the body), a
 * body too large or not JSON (Fastify, reading it); none carries the headers.
 */
const BEFORE_THE_LIMIT = new Set(['401', '413', '415']);

/** `RateLimit-*` on each answer of every operation given once the guard counted the request. */
export function describeRateLimit(document: OpenAPIObject): void {
  for (const operation of operationsOf(document)) {
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!BEFORE_THE_LIMIT.has(status)) response.headers = { ...response.headers, ...RATE_LIMIT_HEADERS };
    }
  }
}
