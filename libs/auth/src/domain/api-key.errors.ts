import { AppError } from '@app/platform/errors';

/**
 * The errors of managing keys (`npm run keys`). No HTTP operation answers
 * with them today, so they are not part of the HTTP error catalogue.
 */
export const API_KEY_ERROR_CODES = {
  nameTaken: 'api_key_name_taken',
  notFound: 'api_key_not_found',
  revoked: 'api_key_revoked',
  invalidName: 'invalid_api_key_name',
  invalidScope: 'invalid_scope',
} as const;

/** The stored keys could not be read for too long: a key of theirs is neither accepted nor called invalid. */
export class ApiKeysUnavailableError extends AppError {
  static readonly code = 'api_keys_unavailable';

  constructor(staleSeconds: number) {
    super(
      'unavailable',
      ApiKeysUnavailableError.code,
      `the API keys could not be read from the database for more than ${staleSeconds} s; retry shortly`,
    );
  }
}

export class ApiKeyNameTakenError extends AppError {
  constructor(name: string) {
    super('conflict', API_KEY_ERROR_CODES.nameTaken, `a key named "${name}" exists already (names are never reused)`);
  }
}

export class ApiKeyNotFoundError extends AppError {
  constructor(name: string) {
    super('not_found', API_KEY_ERROR_CODES.notFound, `no key is named "${name}"`);
  }
}

/** A revoked key is never changed: it grants nothing, and a new key is made instead. */
export class ApiKeyRevokedError extends AppError {
  constructor(name: string) {
    super('conflict', API_KEY_ERROR_CODES.revoked, `the key named "${name}" is revoked; make a new one`);
  }
}

export class InvalidApiKeyNameError extends AppError {
  constructor(message: string) {
    super('invalid', API_KEY_ERROR_CODES.invalidName, message);
  }
}

/** A key's scope that is no scope, or that no operation of the service needs. */
export class InvalidScopeError extends AppError {
  constructor(message: string) {
    super('invalid', API_KEY_ERROR_CODES.invalidScope, message);
  }
}
