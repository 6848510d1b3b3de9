import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The `idempotency_keys` table: one recorded answer per caller and key (see IdempotencyStore). */
@Entity({ name: 'idempotency_keys' })
@Index('IDX_idempotency_keys_created_at', ['createdAt'])
export class IdempotencyRecord {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  principal: string;

  @PrimaryColumn({ name: 'idempotency_key', type: 'varchar', length: 255 })
  idempotencyKey: string;

  /** SHA-256 of the method, the route and the body, in hex. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  @Column({ type: 'integer' })
  status: number;

  @Column({ type: 'varchar', length: 2048, nullable: true })
  location: string | null;

  @Column({ type: 'text' })
  body: string;

  /** Milliseconds since the epoch. */
  @Column({ name: 'created_at', type: 'bigint' })
  createdAt: number | string;
}
