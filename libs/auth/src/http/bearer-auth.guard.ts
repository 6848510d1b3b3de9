import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { continueIfExpected, requestContext, routeSettingsOf } from '@app/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiKeyVerifier } from '../application/api-key.verifier';
import { AuthFailureLimit } from './auth-failure-limit';
import { InvalidApiKeyError, MissingApiKeyError } from './auth.errors';

export const AUTH_REALM = 'petstore';

/** `Bearer <token>`, the scheme word in any case (RFC 9110 section 11.1). */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * The global bearer guard: every route needs a valid API key unless it is
 * marked `@Public()`. It runs as a Fastify `preParsing` hook rather than a Nest
 * guard, because Nest guards run after the body has been read and parsed: an
 * unauthenticated caller must get its 401 before the service spends anything
 * on its body (docs/decisions/0002-authentication-before-parsing.md). Being
 * the first hook after `onRequest`, it runs after the request id, route and
 * deprecation headers are set, so its 401s carry them.
 *
 * A valid key is always served. A failure is counted before it is answered
 * (see AuthFailureLimit), and answered 429 instead of 401 once its address
 * has failed too often.
 */
@Injectable()
export class BearerAuthGuard implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly verifier: ApiKeyVerifier,
    private readonly failures: AuthFailureLimit,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('preParsing', (request, reply, payload, done) => {
      let failure;
      try {
        failure = this.authenticate(request, reply);
      } catch (error) {
        // The key could not be checked (the key store is unavailable): not the caller's failure.
        return done(error as Error);
      }
      if (!failure) {
        // Only now may a client waiting with `Expect: 100-continue` send its body.
        continueIfExpected(request, reply);
        return done(null, payload);
      }
      // A failure to count (the storage fails open anyway) never turns the 401 into anything else.
      this.failures.judge(request.ip).then(
        (tooMany) => {
          if (!tooMany) return done(failure);
          reply.removeHeader('www-authenticate');
          reply.header('retry-after', String(tooMany.retryAfterSeconds));
          done(tooMany);
        },
        () => done(failure),
      );
    });
  }

  /** The caller's error, or `undefined` once the request may go on (the caller is recorded on it). */
  authenticate(request: FastifyRequest, reply: FastifyReply): MissingApiKeyError | InvalidApiKeyError | undefined {
    // An unknown route is answered 404 or 405 alike for everybody.
    if (request.is404 || routeSettingsOf(request).public) return undefined;
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
    requestContext(request.raw).principal = caller.principal;
    return undefined;
  }
}
