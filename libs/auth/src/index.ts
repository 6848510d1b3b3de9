// The auth module's public surface: what the app and other modules may use.
import { defineFeature } from '@app/platform';
import { AUTH_ERROR_CODES } from './auth.errors';
import { AuthModule } from './auth.module';

export { ApiKeyVerifier } from './api-key.verifier';
export type { Caller } from './api-key.verifier';
export { AUTH_REALM } from './bearer-auth.guard';
// `@Public()` lives in the platform (health and metrics use it); re-exported here where readers look for it.
export { Public } from '@app/platform';
export { AUTH_ERROR_CODES, AuthModule };

/** The module as the feature registry lists it. */
export const authFeature = defineFeature({ name: 'auth', module: AuthModule, errorCodes: AUTH_ERROR_CODES });
