import { AppError } from '@app/platform/errors';

export const __THING___ERROR_CODES = {
  notFound: '__thing_snake___not_found',
  invalid: 'invalid___thing_snake__',
} as const;

export class __Thing__NotFoundError extends AppError {
  constructor(readonly __thing__Id: bigint) {
    super('not_found', __THING___ERROR_CODES.notFound, `__thing_words__ ${__thing__Id} does not exist`);
  }
}

/** __A_thing__ that breaks a rule of the domain. */
export class Invalid__Thing__Error extends AppError {
  constructor(message: string) {
    super('invalid', __THING___ERROR_CODES.invalid, message);
  }
}
