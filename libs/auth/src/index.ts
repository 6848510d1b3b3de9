// The auth module's public surface: what the app and other modules may use.
import { defineFeature } from '@app/platform';
import { AuthSettings } from './config/auth.settings';
import { AuthModule } from './auth.module';
import { AUTH_ERROR_CODES } from './http/auth.errors';
import { ApiKeyRecord } from './infrastructure/api-key.record';
import { AUTH_MIGRATIONS } from './infrastructure/migrations';

export { ApiKeyVerifier } from './application/api-key.verifier';
export { runKeysCommand } from './cli/keys.command';
// `@Public()` lives in the platform (health and metrics use it); re-exported here where readers look for it.
export { Public } from '@app/platform';

/** The module as the feature registry lists it. */
export const authFeature = defineFeature({
  name: 'auth',
  module: AuthModule,
  entities: [ApiKeyRecord],
  migrations: AUTH_MIGRATIONS,
  errorCodes: AUTH_ERROR_CODES,
  checkSettings: (config) => void AuthSettings.of(config.settings),
});
