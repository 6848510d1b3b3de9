import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The `auth_api_keys` table: a key's SHA-256, never the key. Times are
 * milliseconds since the epoch, the same on both databases; PostgreSQL returns
 * bigint columns as strings.
 */
@Entity({ name: 'auth_api_keys' })
export class ApiKeyRecord {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'varchar', length: 32, unique: true })
  prefix: string;

  @Column({ name: 'key_digest', type: 'varchar', length: 64 })
  digest: string;

  /** What the key grants, space-separated as OAuth writes scopes (RFC 6749 section 3.3): `*` for every scope. */
  @Column({ type: 'varchar', length: 1000, default: '*' })
  scopes: string;

  @Column({ name: 'created_at', type: 'bigint' })
  createdAt: number | string;

  @Column({ name: 'revoked_at', type: 'bigint', nullable: true })
  revokedAt: number | string | null;

  @Column({ name: 'last_used_at', type: 'bigint', nullable: true })
  lastUsedAt: number | string | null;
}
