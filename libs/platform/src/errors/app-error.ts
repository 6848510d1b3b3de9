/**
 * The kinds of failure the application layers can report. The global error filter maps each kind to an HTTP status; the
 * layers that throw never speak HTTP.
 */
export type ErrorKind =
  'invalid' | 'unauthenticated' | 'not_found' | 'conflict' | 'unprocessable' | 'rate_limited' | 'unavailable';

/**
 * Base class of every expected error: a stable snake_case `code` that clients can rely on, a `kind` that decides the
 * HTTP status, and a message for humans. Plain TypeScript, so that domain code can extend it without a framework.
 *
 * It carries no stack trace: it is an answer, not a fault (the filter logs stacks of unexpected failures only), and
 * capturing one cost each refused request more than the rest of its error (a 401 flood: decision 0022).
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
