import { Injectable } from '@nestjs/common';
import { AppError, FailureTranslators, PLATFORM_ERROR_CODES as CODES, type FailureTranslator } from '@app/platform';
import { constraintViolationOf, isDatabaseUnavailable, withoutRequestData } from './database-errors';

/**
 * The database's failures as the error filter answers them: "not now" is 503
 * `database_unavailable` (with `Retry-After`, and a warning line), a broken
 * unique constraint 409 `already_exists`, a broken foreign key 422
 * `invalid_reference`; and a failed query is logged without its parameters.
 */
@Injectable()
export class DatabaseFailures implements FailureTranslator {
  constructor(translators: FailureTranslators) {
    translators.add(this);
  }

  translate(exception: unknown): { error: AppError; warning?: string } | undefined {
    if (isDatabaseUnavailable(exception)) {
      return {
        error: new AppError('unavailable', CODES.databaseUnavailable, 'the database is unavailable; retry shortly'),
        warning: 'database unavailable',
      };
    }
    switch (constraintViolationOf(exception)) {
      case 'unique':
        return {
          error: new AppError('conflict', CODES.alreadyExists, 'a resource with the same unique value already exists'),
        };
      case 'foreign_key':
        return {
          error: new AppError(
            'unprocessable',
            CODES.invalidReference,
            'the request refers to a resource that does not exist, or removes one that others still refer to',
          ),
        };
      default:
        return undefined;
    }
  }

  loggable(exception: unknown): unknown {
    return withoutRequestData(exception);
  }
}
