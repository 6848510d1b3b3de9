import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppConfig, IS_PUBLIC_KEY, MetricsService } from '@app/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Counter } from 'prom-client';
import { ApiKeyVerifier } from '../application/api-key.verifier';
import { EVERY_SCOPE, grants, routeScope } from '../domain/scope';
import { AuthFailureLimit } from './auth-failure-limit';
import { InvalidApiKeyError, MissingApiKeyError, TooManyAuthFailuresError } from './auth.errors';
import { InsufficientScopeError } from './insufficient-scope.error';
import { SCOPE_AREA_METADATA, SCOPE_METADATA } from './scopes.decorator';

export const AUTH_REALM = 'petstore';

/** `Bearer <token>`, the scheme word in any case (RFC 9110 section 11.1). */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** What a route of a controller without `@Scoped()` needs: every scope (a key given fewer is refused there). */
const UNSCOPED = '*';

/**
 * The design card's bearer guard, for every route (`APP_GUARD`, in the auth module): it authenticates the caller
 * (the bearer key's verification, remembered on the request as `request.caller` and `request.scopes`) and then
 * authorizes the route's scope (`@Scoped()`, `@RequiresScope()`). A `@Public()` route passes.
 *
 * The contract answers a caller without a valid key before anything of its body is read (no 413 or 415 first): the
 * auth module runs {@link authenticate} from a Fastify `onRequest` hook too (auth.module.ts), so the key is verified
 * once, by this code, before the body; `canActivate` then finds the caller known.
 *
 * A failure is counted before it is answered (AuthFailureLimit), and answered 429 instead of 401 once its address has
 * failed too often. A key without the route's scope is answered 403 `insufficient_scope` with
 * `WWW-Authenticate: Bearer ... error="insufficient_scope", scope="..."` (RFC 6750 section 3.1), counted by route and
 * caller.
 */
@Injectable()
export class BearerGuard implements CanActivate {
  private readonly refused?: Counter<'route' | 'caller'>;

  constructor(
    private readonly reflector: Reflector,
    private readonly verifier: ApiKeyVerifier,
    private readonly failures: AuthFailureLimit,
    metrics: MetricsService,
    config: AppConfig,
  ) {
    this.refused = config.metrics
      ? metrics.counter(
          'insufficient_scope_total',
          "Requests refused 403 insufficient_scope: a valid key without the operation's scope, by route and key name.",
          ['route', 'caller'],
        )
      : undefined;
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, [context.getHandler(), context.getClass()])) {
      return true;
    }
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const refusal = this.authenticate(request, reply);
    if (!refusal) return this.authorize(context, request, reply);
    return refusal.then((error) => {
      throw error;
    });
  }

  /**
   * Authentication: `undefined` once the caller is known (now, or by an earlier call for the same request), or the
   * error that refuses it (401, or 429 for a client that keeps failing), once the failure is counted. Throws when the
   * key could not be checked (the key store unavailable: not the caller's failure).
   */
  authenticate(request: FastifyRequest, reply: FastifyReply): Promise<Error> | undefined {
    if (request.caller !== undefined) return undefined;
    const failure = this.verify(request, reply);
    if (!failure) return undefined;
    // A failure to count (the storage fails open anyway) never turns the 401 into anything else.
    // The connection is the client's own unless a trusted proxy named another client (X-Forwarded-For).
    const connection = request.ip === request.raw.socket.remoteAddress ? request.raw.socket : undefined;
    return this.failures.judge(request.ip, connection).then(
      (tooMany) => (tooMany ? tooManyFailures(reply, tooMany) : failure),
      () => failure,
    );
  }

  /** The caller's error, or `undefined` once the caller is recorded on the request. */
  private verify(request: FastifyRequest, reply: FastifyReply): MissingApiKeyError | InvalidApiKeyError | undefined {
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

  /** Authorization: the route's scope against the key's. */
  private authorize(context: ExecutionContext, request: FastifyRequest, reply: FastifyReply): boolean {
    const needed =
      this.reflector.get<string | undefined>(SCOPE_METADATA, context.getHandler()) ??
      routeScope(this.reflector.get<string | undefined>(SCOPE_AREA_METADATA, context.getClass()), request.method);
    const scopes = request.scopes ?? EVERY_SCOPE;
    if (needed === undefined ? scopes.includes(UNSCOPED) : grants(scopes, needed)) return true;
    const scope = needed ?? UNSCOPED;
    reply.header('www-authenticate', `Bearer realm="${AUTH_REALM}", error="insufficient_scope", scope="${scope}"`);
    this.refused?.inc({ route: request.routeOptions.url ?? 'unmatched', caller: request.caller ?? 'anonymous' });
    throw new InsufficientScopeError(scope);
  }
}

/** A client that keeps failing is not kept connected: each further try costs it a new connection. */
function tooManyFailures(reply: FastifyReply, error: TooManyAuthFailuresError): TooManyAuthFailuresError {
  reply.removeHeader('www-authenticate');
  reply.header('retry-after', String(error.retryAfterSeconds));
  reply.header('connection', 'close');
  return error;
}
