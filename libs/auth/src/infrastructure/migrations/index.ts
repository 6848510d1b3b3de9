import type { Type } from '@nestjs/common';
import type { MigrationInterface } from 'typeorm';
import type { ConfiguredKey } from '../../application/configured-api-keys';
import { CreateApiKeys1795500000000 } from './1795500000000-create-api-keys';
import { ApiKeysAsTheirEntity1795600000001 } from './1795600000001-api-keys-as-their-entity';
import { idempotencyRecordsByKeyName } from './1795700000002-idempotency-records-by-key-name';
import { ApiKeyScopes1796000000000 } from './1796000000000-api-key-scopes';

/** The auth module's migrations, oldest first; one moves the records of the keys of `API_KEYS`. */
export function authMigrations(configuredKeys: readonly ConfiguredKey[]): Array<Type<MigrationInterface>> {
  return [
    CreateApiKeys1795500000000,
    ApiKeysAsTheirEntity1795600000001,
    idempotencyRecordsByKeyName(configuredKeys),
    ApiKeyScopes1796000000000,
  ];
}
