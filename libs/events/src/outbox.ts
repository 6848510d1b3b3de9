import { Injectable, Optional } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { SqlClient } from '@app/database';
import { MetricsService, RequestTracing } from '@app/platform';
import { DomainEvents, type DomainEvent, type NewDomainEvent, type Subscription } from '@app/platform/ports';
import { eventId } from './event-id';
import { encodePayload } from './event-payload';
import { insertThenPublish, outboxStatements, type OutboxStatements } from './outbox-statements';

/**
 * The outbox: the unit of work writes the events its aggregates recorded here, in the transaction of their change
 * (`publish()`), and `subscribe()` collects the subscriptions the dispatcher runs. Whoever waits for events is told
 * when a transaction that published one commits.
 */
@Injectable()
export class Outbox extends DomainEvents {
  readonly statements: OutboxStatements;
  readonly subscriptions = new Map<string, Subscription>();
  private readonly listeners = new Set<(name: string) => void>();
  private readonly published?: Counter<'event'>;
  /** PostgreSQL: each insert's statement with its events ({@link insertThenPublish}), made once per insert. */
  private readonly withEvents = new Map<string, string>();

  constructor(
    private readonly db: SqlClient,
    @Optional() private readonly tracing?: RequestTracing,
    @Optional() metrics?: MetricsService,
  ) {
    super();
    this.statements = outboxStatements(db.dialect, db.isPostgres);
    this.published = metrics?.counter('events_published_total', 'Domain events committed to the outbox, by name.', [
      'event',
    ]);
  }

  /**
   * Writes `events` in the transaction the caller has open (one statement for them all): committed with the change,
   * or not at all. Outside a transaction it throws: an event that could commit without its change is no fact.
   */
  async publish(...events: NewDomainEvent[]): Promise<DomainEvent[]> {
    if (!this.db.inTransaction) {
      throw new Error(`${events[0]?.name} published outside a transaction: events commit with their change`);
    }
    const { recorded, rows } = this.rowsOf(events);
    if (rows.length === 1) await this.db.write(this.statements.publish, rows[0]);
    else if (rows.length > 1) await this.db.write(this.statements.publishRows, [JSON.stringify(rows)]);
    this.db.onCommit(() => this.committed(recorded));
    return recorded;
  }

  /** `events` as recorded (an id and a time each) and as the outbox's rows (`publish`'s parameters). */
  rowsOf(events: readonly NewDomainEvent[]): { recorded: DomainEvent[]; rows: unknown[][] } {
    const recorded = events.map((event) => this.recorded(event));
    return { recorded, rows: recorded.map((event) => this.rowOf(event)) };
  }

  /**
   * PostgreSQL, outside a transaction: a new aggregate's row and the events it recorded as one statement, which
   * commits by itself (one round trip). `insert` is told the pending id before its events are made, and the id the
   * database gave once the statement committed.
   */
  async insertWithEvents(
    insert: { sql: string; parameters: unknown[]; inserted: (id: bigint) => void },
    events: () => NewDomainEvent[],
    pendingId: bigint,
  ): Promise<void> {
    insert.inserted(pendingId);
    const recorded = events().map((event) => this.recorded(event));
    let sql = insert.sql;
    let parameters = insert.parameters;
    if (recorded.length > 0) {
      sql = this.withEvents.get(insert.sql) ?? insertThenPublish(insert.sql, insert.parameters.length + 1);
      this.withEvents.set(insert.sql, sql);
      parameters = [...insert.parameters, JSON.stringify(recorded.map((event) => this.rowOf(event)))];
    }
    insert.inserted(this.db.dialect.insertedId(await this.db.write(sql, parameters)));
    this.committed(recorded);
  }

  private recorded(event: NewDomainEvent): DomainEvent {
    const now = Date.now();
    return { ...event, id: eventId(now), occurredAt: new Date(now).toISOString() };
  }

  private rowOf(event: DomainEvent): unknown[] {
    return [
      event.id,
      event.name,
      event.version,
      event.aggregateId,
      Date.parse(event.occurredAt),
      encodePayload(event.payload),
      this.tracing?.traceParent() ?? null,
    ];
  }

  /** After the commit of a transaction that published `events`: counted, and whoever waits for them told. */
  committed(events: readonly DomainEvent[]): void {
    for (const { name } of events) {
      this.published?.inc({ event: name });
      for (const listener of this.listeners) listener(name);
    }
  }

  subscribe<E extends DomainEvent>(subscription: Subscription<E>): void {
    if (this.subscriptions.has(subscription.subscriber)) {
      throw new Error(`two subscriptions are named ${subscription.subscriber}: a subscriber's name is its own`);
    }
    this.subscriptions.set(subscription.subscriber, subscription as unknown as Subscription);
  }

  /** `listener` hears the name of each event this process commits. */
  onPublished(listener: (name: string) => void): void {
    this.listeners.add(listener);
  }
}
