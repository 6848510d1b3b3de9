import { AppError } from '@app/platform/errors';

/** A valid key without the operation's scope (RFC 6750 section 3.1): 403, never counted as a failed authentication. */
export class InsufficientScopeError extends AppError {
  static readonly code = 'insufficient_scope';

  constructor(readonly scope: string) {
    super(
      'forbidden',
      InsufficientScopeError.code,
      `the API key does not grant the scope this operation needs: ${scope}`,
    );
  }
}
