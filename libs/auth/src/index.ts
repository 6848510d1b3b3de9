// The auth module's public surface: what the app and other modules may use.

export { ApiKeyVerifier } from './application/api-key.verifier';
export { runKeysCommand } from './cli/keys.command';
export { Scoped, RequiresScope } from './http/scopes.decorator';
export { Principal, type CallerPrincipal } from './http/principal.decorator';
// `@Public()` lives in the platform (health and metrics use it); re-exported here where readers look for it.
export { Public } from '@app/platform';
export { AUTH_ERROR_CODES } from './http/auth.errors';
export { AuthModule } from './auth.module';
