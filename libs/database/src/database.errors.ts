import { AppError } from '@app/platform';

/** The codes the database's failures are answered with (the service's README lists them). */
export const DATABASE_ERROR_CODES = {
  unavailable: 'database_unavailable',
  commitUnconfirmed: 'commit_unconfirmed',
  alreadyExists: 'already_exists',
  invalidReference: 'invalid_reference',
} as const;

/** 503: the database cannot answer now (answered with Retry-After). */
export class DatabaseUnavailableError extends AppError {
  constructor() {
    super('unavailable', DATABASE_ERROR_CODES.unavailable, 'the database is unavailable; retry shortly');
  }
}

/**
 * 503: the database did not confirm a write in time (its server stalled or went away as it committed): it may have been
 * applied. A retry with the same Idempotency-Key replays it if it was, or makes it once if it was not.
 */
export class CommitUnconfirmedError extends AppError {
  constructor() {
    super(
      'unavailable',
      DATABASE_ERROR_CODES.commitUnconfirmed,
      'the database did not confirm the write: it may have been applied; retry with the same Idempotency-Key',
    );
  }
}

/** 409: a write broke a unique constraint. */
export class AlreadyExistsError extends AppError {
  constructor() {
    super('conflict', DATABASE_ERROR_CODES.alreadyExists, 'a resource with the same unique value already exists');
  }
}

/** 422: a write broke a foreign key. */
export class InvalidReferenceError extends AppError {
  constructor() {
    super(
      'unprocessable',
      DATABASE_ERROR_CODES.invalidReference,
      'the request refers to a resource that does not exist, or removes one that others still refer to',
    );
  }
}
