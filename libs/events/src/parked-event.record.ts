import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The `events_parked` table: an event a subscriber failed on every attempt, set aside so that its subscription goes
 * on. It stays, and its outbox row with it, until a replay (`npm run events -- replay`) handles it.
 */
@Entity({ name: 'events_parked' })
export class ParkedEventRecord {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  subscriber: string;

  @PrimaryColumn({ name: 'event_id', type: 'varchar', length: 36 })
  eventId: string;

  @Column({ type: 'bigint' })
  position: number | string;

  @Column({ type: 'integer' })
  attempts: number;

  /** The last failure's message (never its stack). */
  @Column({ type: 'varchar', length: 1024 })
  error: string;

  /** Milliseconds since the epoch. */
  @Column({ name: 'parked_at', type: 'bigint' })
  parkedAt: number | string;

  /** Milliseconds since the epoch: `npm run events -- replay` asked for it, and the subscription takes it next. */
  @Column({ name: 'replay_requested_at', type: 'bigint', nullable: true })
  replayRequestedAt: number | string | null;
}
