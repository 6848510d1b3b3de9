import { Injectable } from '@nestjs/common';
import { SqlClient, constraintViolationOf } from '@app/platform';
import type { ApiKey } from '../domain/api-key';
import { ApiKeyNameTakenError } from '../domain/api-key.errors';
import { ApiKeyRepository } from '../domain/api-key.repository';

const COLUMNS =
  'name, prefix, key_digest AS "digest", created_at AS "createdAt", revoked_at AS "revokedAt", last_used_at AS "lastUsedAt"';

/** A row of auth_api_keys; PostgreSQL returns bigint columns as strings. */
interface ApiKeyRow {
  name: string;
  prefix: string;
  digest: string;
  createdAt: number | string;
  revokedAt: number | string | null;
  lastUsedAt: number | string | null;
}

/** The auth_api_keys table, through the platform's SqlClient. */
@Injectable()
export class SqlApiKeyRepository extends ApiKeyRepository {
  private readonly sql: Record<'insert' | 'all' | 'active' | 'byName' | 'revoke' | 'used', string>;

  constructor(private readonly db: SqlClient) {
    super();
    const { dialect } = db;
    this.sql = {
      insert: dialect.statement(
        'INSERT INTO auth_api_keys (name, prefix, key_digest, created_at) VALUES ($1, $2, $3, $4)',
      ),
      all: `SELECT ${COLUMNS} FROM auth_api_keys ORDER BY created_at, name`,
      active: `SELECT ${COLUMNS} FROM auth_api_keys WHERE revoked_at IS NULL`,
      byName: dialect.statement(`SELECT ${COLUMNS} FROM auth_api_keys WHERE name = $1`),
      revoke: dialect.statement('UPDATE auth_api_keys SET revoked_at = $2 WHERE name = $1 AND revoked_at IS NULL'),
      used: dialect.statement(
        'UPDATE auth_api_keys SET last_used_at = $2 WHERE name = $1 AND (last_used_at IS NULL OR last_used_at < $2)',
      ),
    };
  }

  async add(key: ApiKey): Promise<void> {
    try {
      await this.db.write(this.sql.insert, [key.name, key.prefix, key.digest, key.createdAt.getTime()]);
    } catch (error) {
      if (constraintViolationOf(error) === 'unique') throw new ApiKeyNameTakenError(key.name);
      throw error;
    }
  }

  async list(): Promise<ApiKey[]> {
    return (await this.db.read<ApiKeyRow>(this.sql.all)).map(toApiKey);
  }

  async active(): Promise<ApiKey[]> {
    return (await this.db.read<ApiKeyRow>(this.sql.active)).map(toApiKey);
  }

  async findByName(name: string): Promise<ApiKey | undefined> {
    const [row] = await this.db.read<ApiKeyRow>(this.sql.byName, [name]);
    return row ? toApiKey(row) : undefined;
  }

  async revoke(name: string, at: Date): Promise<void> {
    await this.db.write(this.sql.revoke, [name, at.getTime()]);
  }

  async recordUse(name: string, at: Date): Promise<void> {
    await this.db.write(this.sql.used, [name, at.getTime()]);
  }
}

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    name: row.name,
    prefix: row.prefix,
    digest: row.digest,
    createdAt: new Date(Number(row.createdAt)),
    revokedAt: row.revokedAt === null ? undefined : new Date(Number(row.revokedAt)),
    lastUsedAt: row.lastUsedAt === null ? undefined : new Date(Number(row.lastUsedAt)),
  };
}
