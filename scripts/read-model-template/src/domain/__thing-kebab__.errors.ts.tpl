import { AppError } from '@app/platform/errors';

export const __THING___ERROR_CODES = {
  notFound: '__thing_snake___not_found',
} as const;

/** No event was counted under this key (yet: a count appears with the first event it counts). */
export class __Thing__NotFoundError extends AppError {
  constructor(readonly key: string) {
    super('not_found', __THING___ERROR_CODES.notFound, `nothing is counted under ${JSON.stringify(key)}`);
  }
}
