import { AppError } from '@app/platform/errors';
import { ApiKeysUnavailableError } from '../domain/api-key.errors';
import { InsufficientScopeError } from './insufficient-scope.error';

export const AUTH_ERROR_CODES = {
  missingApiKey: 'missing_api_key',
  invalidApiKey: 'invalid_api_key',
  tooManyAuthFailures: 'too_many_auth_failures',
  apiKeysUnavailable: ApiKeysUnavailableError.code,
  insufficientScope: InsufficientScopeError.code,
} as const;

export class MissingApiKeyError extends AppError {
  constructor() {
    super(
      'unauthenticated',
      AUTH_ERROR_CODES.missingApiKey,
      'an API key is required: send Authorization: Bearer <key>',
    );
  }
}

export class InvalidApiKeyError extends AppError {
  constructor() {
    super('unauthenticated', AUTH_ERROR_CODES.invalidApiKey, 'the API key is not valid');
  }
}

/** Too many requests without a valid key from one client address, or on one connection. */
export class TooManyAuthFailuresError extends AppError {
  constructor(
    readonly limit: number,
    readonly retryAfterSeconds: number,
    from: 'address' | 'connection' = 'address',
  ) {
    super(
      'rate_limited',
      AUTH_ERROR_CODES.tooManyAuthFailures,
      from === 'address'
        ? `more than ${limit} requests without a valid API key from this address in a minute; retry in ${retryAfterSeconds} s`
        : `more than ${limit} requests without a valid API key on this connection; it is closed, retry in ${retryAfterSeconds} s`,
    );
  }
}
