import { Injectable } from '@nestjs/common';
import { FailureTranslator, OperationContract, type AppError } from '@app/platform';
import { UnconfirmedWrite, constraintViolationOf, isDatabaseUnavailable, withoutRequestData } from './driver-errors';
import { ConcurrentChange } from './unit-writes';
import {
  AlreadyExistsError,
  CommitUnconfirmedError,
  DatabaseUnavailableError,
  InvalidReferenceError,
} from './database.errors';

/**
 * The database's failures as the error filter answers them: "not now" is 503
 * `database_unavailable` (with `Retry-After`, and a warning line), a broken
 * unique constraint 409 `already_exists`, a broken foreign key 422
 * `invalid_reference`; a unit of work that met a row changed under it until
 * DATABASE_TIMEOUT_MS ran out is "not now" too; and a failed query is logged
 * without its parameters.
 * Any operation may meet the database away: its 503 is in every operation's
 * contract.
 */
@Injectable()
@FailureTranslator()
@OperationContract()
export class DatabaseFailures implements FailureTranslator, OperationContract {
  readonly mayAnswer: readonly AppError[] = [new DatabaseUnavailableError(), new CommitUnconfirmedError()];

  translate(exception: unknown): { error: AppError; warning?: string } | undefined {
    if (exception instanceof UnconfirmedWrite) {
      return {
        error: new CommitUnconfirmedError(),
        warning: 'database did not confirm a write: it may have been applied',
      };
    }
    if (exception instanceof ConcurrentChange) {
      return {
        error: new DatabaseUnavailableError(),
        warning: 'a unit of work met concurrent changes until its deadline',
      };
    }
    if (isDatabaseUnavailable(exception)) {
      return { error: new DatabaseUnavailableError(), warning: 'database unavailable' };
    }
    switch (constraintViolationOf(exception)) {
      case 'unique':
        return { error: new AlreadyExistsError() };
      case 'foreign_key':
        return { error: new InvalidReferenceError() };
      default:
        return undefined;
    }
  }

  loggable(exception: unknown): unknown {
    return withoutRequestData(exception instanceof UnconfirmedWrite ? exception.cause : exception);
  }
}
