import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppConfig, MetricsService, routeSettingsOf } from '@app/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Counter } from 'prom-client';
import { EVERY_SCOPE, grants } from '../domain/scope';
import { AUTH_REALM } from './bearer-authenticator';
import { InsufficientScopeError } from './insufficient-scope.error';
import { SCOPE_METADATA } from './scopes.decorator';

/** What a route that states no scope needs: every scope (a key given fewer is refused there). */
const UNSCOPED = '*';

/**
 * The design card's bearer guard, for every route (APP_GUARD): authorization. Authentication stays the request
 * pipeline's first step, before the body is read (decision 0002), and leaves the caller and the scopes of its key on
 * the request; the guard checks the route's scope (`@Scoped()`, `@RequiresScope()`) against them. A key without it
 * is answered 403 `insufficient_scope` with `WWW-Authenticate: Bearer ... error="insufficient_scope", scope="..."`
 * (RFC 6750 section 3.1), counted by route and caller. A `@Public()` route passes.
 */
@Injectable()
export class BearerGuard implements CanActivate {
  private readonly refused?: Counter<'route' | 'caller'>;

  constructor(
    private readonly reflector: Reflector,
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

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (routeSettingsOf(request).public) return true;
    const needed = this.reflector.get<string | undefined>(SCOPE_METADATA, context.getHandler());
    const scopes = request.scopes ?? EVERY_SCOPE;
    if (needed === undefined ? scopes.includes(UNSCOPED) : grants(scopes, needed)) return true;
    const scope = needed ?? UNSCOPED;
    context
      .switchToHttp()
      .getResponse<FastifyReply>()
      .header('www-authenticate', `Bearer realm="${AUTH_REALM}", error="insufficient_scope", scope="${scope}"`);
    this.refused?.inc({ route: request.routeOptions.url ?? 'unmatched', caller: request.caller ?? 'anonymous' });
    throw new InsufficientScopeError(scope);
  }
}
