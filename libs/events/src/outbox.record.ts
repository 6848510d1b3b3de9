import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The `events_outbox` table: each event, written in the transaction of the change it tells of. Subscribers read it in
 * the order of (`transaction_id`, `position`): on PostgreSQL `transaction_id` is the publishing transaction's id, and
 * a subscriber reads only events of transactions older than every one still open, so that one committing late never
 * lands behind a subscriber's progress; on SQLite, whose writes are one at a time, it is 0 and `position` alone orders.
 */
@Entity({ name: 'events_outbox' })
@Index('IDX_events_outbox_order', ['transactionId', 'position'])
export class OutboxRecord {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  position: number | string;

  @Index('UQ_events_outbox_id', { unique: true })
  @Column({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 128 })
  name: string;

  @Column({ type: 'integer' })
  version: number;

  @Column({ name: 'aggregate_id', type: 'varchar', length: 64 })
  aggregateId: string;

  /** Milliseconds since the epoch. */
  @Column({ name: 'occurred_at', type: 'bigint' })
  occurredAt: number | string;

  /** JSON, int64s kept exact (event-payload.ts). */
  @Column({ type: 'text' })
  payload: string;

  @Column({ name: 'transaction_id', type: 'bigint' })
  transactionId: number | string;

  /** The publishing request's W3C trace context, when it was traced: the handler's span links to it. */
  @Column({ name: 'trace_parent', type: 'varchar', length: 55, nullable: true })
  traceParent: string | null;
}
