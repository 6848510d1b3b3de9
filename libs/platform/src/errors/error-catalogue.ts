import type { ErrorKind } from './app-error';

/** HTTP status of each error kind: the one place where domain failures meet HTTP. */
export const STATUS_OF_KIND: Readonly<Record<ErrorKind, number>> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
};

/**
 * The error codes the core itself produces; modules add theirs through their domain errors. The README's catalogue
 * lists both, and a test keeps it complete.
 */
export const PLATFORM_ERROR_CODES = {
  invalidParameter: 'invalid_parameter',
  invalidBody: 'invalid_body',
  malformedJson: 'malformed_json',
  badRequest: 'bad_request',
  routeNotFound: 'route_not_found',
  methodNotAllowed: 'method_not_allowed',
  payloadTooLarge: 'payload_too_large',
  unsupportedMediaType: 'unsupported_media_type',
  notReady: 'not_ready',
  shuttingDown: 'shutting_down',
  internalError: 'internal_error',
  requestTimeout: 'request_timeout',
  headersTooLarge: 'headers_too_large',
  expectationFailed: 'expectation_failed',
} as const;

export type PlatformErrorCode = (typeof PLATFORM_ERROR_CODES)[keyof typeof PLATFORM_ERROR_CODES];

/** Seconds a client is asked to wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 2;
