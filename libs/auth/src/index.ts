export { ApiKeyVerifier } from './api-key.verifier';
export type { Caller } from './api-key.verifier';
export { AUTH_ERROR_CODES } from './auth.errors';
export { AuthModule } from './auth.module';
export { AUTH_REALM } from './bearer-auth.guard';
// `@Public()` lives in the platform (health and metrics use it); re-exported here where readers look for it.
export { Public } from '@app/platform';
