import { AppError } from '@app/platform/errors';

export const __THING___ERROR_CODES = {
  notFound: '__thing_snake___not_found',
  invalid: 'invalid___thing_snake__',
// <each field>
// <ref>
  unknown__Ref__: '__thing_snake___unknown___ref_snake__',
// </ref>
// </each>
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
// <each field>
// <ref>

/** __A_thing__ whose __field__ names no __ref_words__ of __refModule__: the request is well-formed, what it names is missing (422). */
export class Unknown__Thing____Ref__Error extends AppError {
  constructor(readonly __field__: bigint) {
    super('unprocessable', __THING___ERROR_CODES.unknown__Ref__, `__field__ ${__field__} names no __ref_words__`);
  }
}
// </ref>
// </each>
