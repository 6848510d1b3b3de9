import { Injectable } from '@nestjs/common';
import { SqlClient, constraintViolationOf } from '@app/database';
import { Brackets, IsNull, LessThan, type Repository } from 'typeorm';
import type { ApiKey } from '../domain/api-key';
import { ApiKeyNameTakenError } from '../domain/api-key.errors';
import { ApiKeyRepository } from '../domain/api-key.repository';
import { ApiKeyRecord } from './api-key.record';

/**
 * The auth_api_keys table through TypeORM's repository of ApiKeyRecord. Off the
 * request path: read at startup and every API_KEY_CACHE_SECONDS, written by
 * `npm run keys` and once a minute per key in use.
 */
@Injectable()
export class TypeOrmApiKeyRepository extends ApiKeyRepository {
  constructor(private readonly db: SqlClient) {
    super();
  }

  /** On the current transaction's connection, when there is one. */
  private get records(): Repository<ApiKeyRecord> {
    return this.db.repository(ApiKeyRecord);
  }

  async add(key: ApiKey): Promise<void> {
    const record = {
      name: key.name,
      prefix: key.prefix,
      digest: key.digest,
      scopes: key.scopes.join(' '),
      createdAt: key.createdAt.getTime(),
      revokedAt: null,
      lastUsedAt: null,
    };
    try {
      await this.db.transaction(() => this.records.insert(record));
    } catch (error) {
      if (constraintViolationOf(error) === 'unique') throw new ApiKeyNameTakenError(key.name);
      throw error;
    }
  }

  async list(): Promise<ApiKey[]> {
    return (await this.records.find({ order: { createdAt: 'ASC', name: 'ASC' } })).map(toApiKey);
  }

  async active(): Promise<ApiKey[]> {
    return (await this.records.findBy({ revokedAt: IsNull() })).map(toApiKey);
  }

  async findByName(name: string): Promise<ApiKey | undefined> {
    const record = await this.records.findOneBy({ name });
    return record ? toApiKey(record) : undefined;
  }

  async revoke(name: string, at: Date): Promise<void> {
    await this.db.transaction(() => this.records.update({ name, revokedAt: IsNull() }, { revokedAt: at.getTime() }));
  }

  async setScopes(name: string, scopes: readonly string[]): Promise<void> {
    await this.db.transaction(() => this.records.update({ name, revokedAt: IsNull() }, { scopes: scopes.join(' ') }));
  }

  async recordUse(name: string, at: Date): Promise<void> {
    const time = at.getTime();
    await this.db.transaction(() =>
      this.records
        .createQueryBuilder()
        .update()
        .set({ lastUsedAt: time })
        .where({ name })
        // Never moved back: two instances may record the same key's uses out of order.
        .andWhere(new Brackets((when) => when.where({ lastUsedAt: IsNull() }).orWhere({ lastUsedAt: LessThan(time) })))
        .execute(),
    );
  }
}

function toApiKey(record: ApiKeyRecord): ApiKey {
  return {
    name: record.name,
    prefix: record.prefix,
    digest: record.digest,
    scopes: record.scopes.split(' '),
    createdAt: new Date(Number(record.createdAt)),
    revokedAt: record.revokedAt === null ? undefined : new Date(Number(record.revokedAt)),
    lastUsedAt: record.lastUsedAt === null ? undefined : new Date(Number(record.lastUsedAt)),
  };
}
