import { Injectable, Optional } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { SqlClient } from '@app/database';
import { MetricsService, RequestTracing } from '@app/platform';
import { DomainEvents, type DomainEvent, type NewDomainEvent, type Subscription } from '@app/platform/ports';
import { eventId } from './event-id';
import { encodePayload } from './event-payload';
import { outboxStatements, type OutboxStatements } from './outbox-statements';

/**
 * The outbox: `publish()` writes an event in the caller's transaction, and `subscribe()` collects the subscriptions
 * the dispatcher runs. Whoever waits for events is told when a transaction that published one commits.
 */
@Injectable()
export class Outbox extends DomainEvents {
  readonly statements: OutboxStatements;
  readonly subscriptions = new Map<string, Subscription>();
  private readonly listeners = new Set<(name: string) => void>();
  private readonly published?: Counter<'event'>;

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

  async publish<E extends DomainEvent>(event: NewDomainEvent<E>): Promise<E> {
    if (!this.db.inTransaction) {
      throw new Error(`${event.name} published outside a transaction: publish inside UnitOfWork.run()`);
    }
    const recorded = this.recorded(event);
    await this.db.write(this.statements.publish, this.rowOf(recorded));
    this.db.onCommit(() => this.committed(event.name));
    return recorded;
  }

  async publishWith<T, E extends DomainEvent>(
    change: () => Promise<T>,
    eventOf: (result: T) => NewDomainEvent<E>,
  ): Promise<T> {
    if (this.db.inTransaction) {
      const result = await change();
      await this.publish(eventOf(result));
      return result;
    }
    let name = '';
    const result = await this.db.carrying(change, {
      sql: this.statements.publishRows,
      row: (changed) => {
        const recorded = this.recorded(eventOf(changed));
        name = recorded.name;
        return this.rowOf(recorded);
      },
    });
    this.committed(name);
    return result;
  }

  private recorded<E extends DomainEvent>(event: NewDomainEvent<E>): E {
    const now = Date.now();
    return { ...event, id: eventId(now), occurredAt: new Date(now).toISOString() } as unknown as E;
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

  /** After the commit of a transaction that published `name`. */
  private committed(name: string): void {
    this.published?.inc({ event: name });
    for (const listener of this.listeners) listener(name);
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
