// The auth module's public surface: what the app and other modules may use.
import { defineCapability } from '@app/platform';
import { AuthSettings } from './config/auth.settings';
import { AuthModule } from './auth.module';
import { AUTH_ERROR_CODES } from './http/auth.errors';
import { ApiKeyRecord } from './infrastructure/api-key.record';
import { authMigrations } from './infrastructure/migrations';

export { ApiKeyVerifier } from './application/api-key.verifier';
export { runKeysCommand } from './cli/keys.command';
export { Scoped, RequiresScope } from './http/scopes.decorator';
export { Principal, type CallerPrincipal } from './http/principal.decorator';
// `@Public()` lives in the platform (health and metrics use it); re-exported here where readers look for it.
export { Public } from '@app/platform';

/** Authentication as the application composes it: a bearer API key on every route not marked `@Public()`. */
export const authCapability = defineCapability({
  name: 'auth',
  settings: (config) => AuthSettings.of(config.settings),
  module: (settings) => AuthModule.forRoot(settings),
  entities: [ApiKeyRecord],
  migrations: (settings) => authMigrations(settings.apiKeys),
  errorCodes: AUTH_ERROR_CODES,
});
