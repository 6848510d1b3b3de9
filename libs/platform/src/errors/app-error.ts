/** The kinds of failure the layers report; the error filter maps each to an HTTP status. */
export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'unprocessable'
  | 'rate_limited'
  | 'unavailable';

/**
 * Base class of every expected error: a stable snake_case `code` for clients, a `kind` that decides the HTTP status,
 * and a message for humans. Plain TypeScript, so domain code can extend it. It captures no stack trace: it is an
 * answer, not a fault, and the capture cost a refused request more than the rest of its error (decision 0022).
 */
export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message, options);
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.name = new.target.name;
  }
}
