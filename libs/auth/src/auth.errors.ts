import { AppError } from '@app/platform/errors';

export const AUTH_ERROR_CODES = {
  missingApiKey: 'missing_api_key',
  invalidApiKey: 'invalid_api_key',
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
