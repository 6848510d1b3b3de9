import { CreateApiKeys1795500000000 } from './1795500000000-create-api-keys';
import { ApiKeysAsTheirEntity1795600000001 } from './1795600000001-api-keys-as-their-entity';
import { IdempotencyRecordsByKeyName1795700000002 } from './1795700000002-idempotency-records-by-key-name';
import { ApiKeyScopes1796000000000 } from './1796000000000-api-key-scopes';

/** The auth module's migrations, oldest first; one moves the records of the keys of `API_KEYS`. */
export const AUTH_MIGRATIONS = [
  CreateApiKeys1795500000000,
  ApiKeysAsTheirEntity1795600000001,
  IdempotencyRecordsByKeyName1795700000002,
  ApiKeyScopes1796000000000,
];
