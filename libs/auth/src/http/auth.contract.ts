import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { OperationContract, type AppError } from '@app/platform';
import { AuthSettings } from '../config/auth.settings';
import { ApiKeysUnavailableError } from '../domain/api-key.errors';
import { InvalidApiKeyError, MissingApiKeyError, TooManyAuthFailuresError } from './auth.errors';
import { InsufficientScopeError } from './insufficient-scope.error';
import { RouteScopes } from './route-scopes';

/**
 * What the bearer guard adds to every operation: a key is needed (401), its scope may fall short (403), a client that
 * keeps failing is refused for a while (429, unless AUTH_FAILURES_PER_MINUTE=0), and keys unread too long refuse all
 * (503); each operation's scope, in the document.
 */
@Injectable()
@OperationContract()
export class AuthContract implements OperationContract {
  readonly mayAnswer: readonly AppError[];

  constructor(settings: AuthSettings) {
    this.mayAnswer = [
      new InvalidApiKeyError(),
      new MissingApiKeyError(),
      new InsufficientScopeError('pets:write'),
      new ApiKeysUnavailableError(settings.staleSeconds),
      ...(settings.failuresPerMinute > 0 ? [new TooManyAuthFailuresError(settings.failuresPerMinute, 60)] : []),
    ];
  }

  describe(document: OpenAPIObject): void {
    RouteScopes.describe(document);
  }
}
