import { CreateApiKeys1795500000000 } from './1795500000000-create-api-keys';
import { ApiKeysAsTheirEntity1795600000001 } from './1795600000001-api-keys-as-their-entity';

/** The auth module's migrations, oldest first. */
export const AUTH_MIGRATIONS = [CreateApiKeys1795500000000, ApiKeysAsTheirEntity1795600000001];
