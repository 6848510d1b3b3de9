import { randomBytes } from 'node:crypto';
import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { DatabaseModule } from '@app/database';
import { RateLimitModule } from '@app/rate-limit';
import { APP_GUARD, DiscoveryModule, HttpAdapterHost } from '@nestjs/core';
import { APP_LOGGER, AppConfig, ConfigError, routeSettingsOf } from '@app/platform';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { Logger } from 'pino';
import { AcceptedApiKeys } from './application/accepted-api-keys';
import { ApiKeyVerifier } from './application/api-key.verifier';
import { ConfiguredApiKeys, type ConfiguredKey } from './application/configured-api-keys';
import { AuthSettings, authConfig } from './config/auth.settings';
import { ApiKeyRecord } from './infrastructure/api-key.record';
import { AUTH_MIGRATIONS } from './infrastructure/migrations';
import { StoredApiKeys } from './application/stored-api-keys';
import { ApiKeyRepository } from './domain/api-key.repository';
import { AuthFailureLimit } from './http/auth-failure-limit';
import { AuthContract } from './http/auth.contract';
import { BearerGuard } from './http/bearer.guard';
import { RouteScopes } from './http/route-scopes';
import { EVERY_SCOPE, scopePatterns } from './domain/scope';
import { StoredKeysRefresh } from './infrastructure/stored-keys-refresh';
import { TypeOrmApiKeyRepository } from './infrastructure/typeorm-api-key.repository';

/** The name of the key generated outside production when API_KEYS is unset. */
const DEVELOPMENT_KEY = 'development';

/**
 * The keys of `API_KEYS`; outside production, without any, one generated key,
 * printed once as the service starts (the only key that ever reaches the log). Production takes no
 * generated key: it serves the keys of the database, and stops the startup if
 * there are none (AuthModule.onModuleInit).
 */
function configuredKeys(settings: AuthSettings, config: AppConfig): readonly ConfiguredKey[] {
  if (settings.apiKeys.length > 0 || config.nodeEnv === 'production') return settings.apiKeys;
  return [{ name: DEVELOPMENT_KEY, key: randomBytes(24).toString('base64url'), scopes: EVERY_SCOPE }];
}

/**
 * Bearer API-key authentication for every route not marked `@Public()`, with
 * the keys of the database (`npm run keys`) and those of `API_KEYS`. The
 * stored keys are read at startup, before the service listens, and again
 * every API_KEY_CACHE_SECONDS.
 */
@Module({
  imports: [
    DiscoveryModule,
    ConfigModule.forFeature(authConfig),
    DatabaseModule.forFeature({ entities: [ApiKeyRecord], migrations: AUTH_MIGRATIONS }),
    RateLimitModule,
  ],
  providers: [
    { provide: AuthSettings, useExisting: authConfig.KEY },
    { provide: ApiKeyRepository, useClass: TypeOrmApiKeyRepository },
    {
      provide: StoredApiKeys,
      inject: [ApiKeyRepository, APP_LOGGER, AuthSettings],
      useFactory: (keys: ApiKeyRepository, logger: Logger, settings: AuthSettings) =>
        new StoredApiKeys(
          keys,
          (error) => logger.warn({ context: 'ApiKeys', err: error }, 'could not record when an API key was last used'),
          settings.staleSeconds,
        ),
    },
    {
      provide: ConfiguredApiKeys,
      inject: [AuthSettings, AppConfig],
      useFactory: (settings: AuthSettings, config: AppConfig) =>
        new ConfiguredApiKeys(configuredKeys(settings, config)),
    },
    {
      provide: ApiKeyVerifier,
      inject: [StoredApiKeys, ConfiguredApiKeys],
      useFactory: (stored: StoredApiKeys, configured: ConfiguredApiKeys) => new AcceptedApiKeys(stored, configured),
    },
    AuthFailureLimit,
    StoredKeysRefresh,
    RouteScopes,
    AuthContract,
    // Every route: the bearer key, then the route's scope against the key's.
    BearerGuard,
    { provide: APP_GUARD, useExisting: BearerGuard },
  ],
})
export class AuthModule implements OnModuleInit {
  constructor(
    private readonly stored: StoredApiKeys,
    private readonly configured: ConfiguredApiKeys,
    private readonly settings: AuthSettings,
    @Inject(APP_LOGGER) private readonly logger: Logger,
    private readonly guard: BearerGuard,
    private readonly routeScopes: RouteScopes,
    private readonly adapterHost: HttpAdapterHost,
    private readonly refresh: StoredKeysRefresh,
  ) {}

  /**
   * A failure here stops the startup: a service that cannot read its keys
   * would refuse every caller; so does one with no key at all (production
   * without API_KEYS, before `npm run keys -- create`).
   */
  async onModuleInit(): Promise<void> {
    // A scope of API_KEYS that no route needs is a typo: refused at start, naming the scopes there are.
    const known = this.routeScopes.all();
    for (const { name, scopes } of this.settings.apiKeys) {
      if (scopes === EVERY_SCOPE) continue;
      try {
        scopePatterns(scopes, known);
      } catch (error) {
        throw new ConfigError('API_KEYS', `the key named ${name}: ${(error as Error).message}`);
      }
    }
    const generated = this.configured.keyNamed(DEVELOPMENT_KEY);
    if (this.settings.apiKeys.length === 0 && generated !== undefined) {
      this.logger.warn(
        { context: 'Bootstrap' },
        `API_KEYS is not set: this run accepts the generated development key ${generated}`,
      );
    }
    await this.stored.refresh();
    if (this.configured.size === 0 && this.stored.size === 0) {
      throw new ConfigError(
        'API_KEYS',
        'must be set in production while the database holds no API key (or create one: npm run keys -- create --name <name>)',
      );
    }
    this.refresh.start();
    this.authenticateBeforeTheBody();
  }

  /**
   * The guard's authentication, run as soon as the request line and headers have arrived: a caller without a valid
   * key is answered before anything of its body is read (no 413 or 415 first, no `100 Continue`), and the guard then
   * finds it known. After the platform's own first checks (an unknown route is a 404, a malformed header a 400),
   * which it registered as the application was created. Without an HTTP server (a command-line tool), nothing.
   */
  private authenticateBeforeTheBody(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    const guard = this.guard;
    const beforeTheBody: onRequestHookHandler = (request, reply, done) => {
      if (routeSettingsOf(request).public) return done();
      let refusal;
      try {
        refusal = guard.authenticate(request, reply);
      } catch (error) {
        return done(error as Error);
      }
      if (!refusal) return done();
      void refusal.then(done);
    };
    fastify.addHook('onRequest', beforeTheBody);
  }
}
