import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The `events_subscriptions` table: each subscriber's progress through the outbox (the inbox: it moves in the same
 * transaction as the handler's work, so an event's effects happen once), and the failures of the event at its head.
 * Its row is also the subscription's claim: one instance at a time handles a subscriber's events.
 */
@Entity({ name: 'events_subscriptions' })
export class SubscriptionRecord {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  subscriber: string;

  @Column({ type: 'varchar', length: 128 })
  event: string;

  /** The last event handled (or parked): (`transaction_id`, `position`) of the outbox. */
  @Column({ name: 'after_transaction', type: 'bigint' })
  afterTransaction: number | string;

  @Column({ name: 'after_position', type: 'bigint' })
  afterPosition: number | string;

  /** Failed attempts at the next event. */
  @Column({ type: 'integer' })
  attempts: number;

  /** Milliseconds since the epoch before which no instance tries the next event again. */
  @Column({ name: 'retry_at', type: 'bigint' })
  retryAt: number | string;

  /** When an instance that has the subscription last said so (ms since the epoch): an old one is an orphan's. */
  @Column({ name: 'seen_at', type: 'bigint', default: 0 })
  seenAt: number | string;
}
