import { Injectable } from '@nestjs/common';
import { Authenticator } from '@app/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyVerifier } from '../application/api-key.verifier';
import { AuthFailureLimit } from './auth-failure-limit';
import { InvalidApiKeyError, MissingApiKeyError } from './auth.errors';

export const AUTH_REALM = 'petstore';

/** `Bearer <token>`, the scheme word in any case (RFC 9110 section 11.1). */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * Bearer API keys, as the request pipeline's authentication step
 * (pipeline/authenticate.ts in the platform says when it runs: before the
 * body is read, on every route not marked `@Public()`).
 *
 * A valid key is always served. A failure is counted before it is answered
 * (see AuthFailureLimit), and answered 429 instead of 401 once its address
 * has failed too often.
 */
@Injectable()
export class BearerAuthenticator extends Authenticator {
  constructor(
    private readonly verifier: ApiKeyVerifier,
    private readonly failures: AuthFailureLimit,
  ) {
    super();
  }

  authenticate(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
    let failure;
    try {
      failure = this.check(request, reply);
    } catch (error) {
      // The key could not be checked (the key store is unavailable): not the caller's failure.
      return done(error as Error);
    }
    if (!failure) return done();
    // A failure to count (the storage fails open anyway) never turns the 401 into anything else.
    // The connection is the client's own unless a trusted proxy named another client (X-Forwarded-For).
    const connection = request.ip === request.raw.socket.remoteAddress ? request.raw.socket : undefined;
    this.failures.judge(request.ip, connection).then(
      (tooMany) => {
        if (!tooMany) return done(failure);
        reply.removeHeader('www-authenticate');
        reply.header('retry-after', String(tooMany.retryAfterSeconds));
        // A client that keeps failing is not kept connected: each further try costs it a new connection.
        reply.header('connection', 'close');
        done(tooMany);
      },
      () => done(failure),
    );
  }

  /** The caller's error, or `undefined` once the caller is recorded on the request. */
  private check(request: FastifyRequest, reply: FastifyReply): MissingApiKeyError | InvalidApiKeyError | undefined {
    const header = request.headers.authorization;
    if (header === undefined || header.trim() === '') {
      reply.header('www-authenticate', `Bearer realm="${AUTH_REALM}"`);
      return new MissingApiKeyError();
    }
    const token = BEARER.exec(header)?.[1];
    const caller = token === undefined ? undefined : this.verifier.verify(token);
    if (!caller) {
      reply.header('www-authenticate', `Bearer realm="${AUTH_REALM}", error="invalid_token"`);
      return new InvalidApiKeyError();
    }
    request.caller = caller.principal;
    request.scopes = caller.scopes;
    return undefined;
  }
}
