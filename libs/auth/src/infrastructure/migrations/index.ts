import { CreateApiKeys1795500000000 } from './1795500000000-create-api-keys';

/** The auth module's migrations, oldest first. */
export const AUTH_MIGRATIONS = [CreateApiKeys1795500000000];
