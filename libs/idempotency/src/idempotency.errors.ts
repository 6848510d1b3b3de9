import { AppError } from '@app/platform';

/** The codes idempotency answers with (the service's README lists them; idempotencyFeature registers them). */
export const IDEMPOTENCY_ERROR_CODES = {
  keyInUse: 'idempotency_key_in_use',
  keyReused: 'idempotency_key_reused',
} as const;

/** 409: the first request with this key is still being processed (answered with Retry-After). */
export class IdempotencyKeyInUseError extends AppError {
  constructor() {
    super(
      'conflict',
      IDEMPOTENCY_ERROR_CODES.keyInUse,
      'a request with this Idempotency-Key is still being processed; retry shortly',
    );
  }
}

/** 422: the key was used with a different request. */
export class IdempotencyKeyReusedError extends AppError {
  constructor() {
    super(
      'unprocessable',
      IDEMPOTENCY_ERROR_CODES.keyReused,
      'this Idempotency-Key was used with a different request; use a new key for a new request',
    );
  }
}
