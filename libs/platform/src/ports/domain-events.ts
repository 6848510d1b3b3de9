/**
 * A fact a module tells the others, after it happened: `pets.pet-created`. Plain and versioned, so that it can be
 * stored and read back by a later release: a change of its payload's shape is a new `version`, never an edit.
 */
export interface DomainEvent<Name extends string = string, Payload extends object = object> {
  /** Unique, a UUID (version 7: time-ordered): what a broker's deduplication and `npm run events` know it by. */
  readonly id: string;
  readonly name: Name;
  readonly version: number;
  /** When the change was made (ISO 8601, UTC, milliseconds). */
  readonly occurredAt: string;
  /** The id of what changed (a pet's, as decimal text): the events of one aggregate are handled in order. */
  readonly aggregateId: string;
  /** JSON-safe data, where an int64 stays a `bigint`, exact. */
  readonly payload: Payload;
}

/** What a publisher says; the rest (id, when) is added as it is recorded. */
export type NewDomainEvent<E extends DomainEvent = DomainEvent> = Pick<
  E,
  'name' | 'version' | 'aggregateId' | 'payload'
>;

/** A subscriber's reaction to one kind of event. */
export interface Subscription<E extends DomainEvent = DomainEvent> {
  /**
   * Who reacts, `<module>.<purpose>` (`orders.release-on-pet-sold`): its progress and its parked events are kept by
   * this name, so it never changes once deployed.
   */
  readonly subscriber: string;
  readonly event: E['name'];
  /**
   * Runs after the publisher's commit, never in its request, in a transaction of its own: whatever it writes through
   * the database (another module's facade included) commits with the subscriber's progress, or not at all, so its
   * effects happen once per event. It may run more than once (a failure, a crash, a PostgreSQL retry): nothing in it
   * that the database does not undo (no message sent, no call to another service).
   */
  handle(event: E): Promise<void>;
}

/**
 * Domain events through a transactional outbox, provided by `@app/events`: a module subscribes to the events of others
 * (and its own) here. It publishes none here: its aggregates record them, and the unit of work writes them with their
 * change (docs/extending.md, "Reacting to another module").
 */
export abstract class DomainEvents {
  /** Adds a subscription; call it when the subscriber's module is created (before the application starts). */
  abstract subscribe<E extends DomainEvent>(subscription: Subscription<E>): void;
}
