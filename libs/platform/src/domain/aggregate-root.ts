import type { NewDomainEvent } from '../ports/domain-events';

/**
 * What a module's aggregate extends (a pet, an order): it keeps the rules of its own changes in its methods, and
 * records the events those changes are, which the unit of work writes to the outbox when it commits the aggregate
 * with them (docs/extending.md, "Writing across modules"). Plain TypeScript, so that a test builds an aggregate with
 * `new` or its factory and reads what it recorded with {@link recordedEvents}.
 *
 * Its identity and version are the database's: a new aggregate has neither until its unit of work commits (its
 * repository then calls {@link stored}); one read back has both, and its repository saves it only if the row still has
 * that version, so that of two writers who read the same version exactly one commits (optimistic concurrency).
 */
export abstract class AggregateRoot {
  #id?: bigint;
  #version: number;
  /** Made at the first event: an aggregate read for a list records none, and costs no array. */
  #recorded?: Array<() => NewDomainEvent>;

  /** @param stored the row's id and version, when the aggregate is read back; none for a new one. */
  protected constructor(stored?: { id: bigint; version: number }) {
    this.#id = stored?.id;
    this.#version = stored?.version ?? 0;
  }

  /** The id the database gave it. A new aggregate has none until its unit of work commits: reading it throws. */
  get id(): bigint {
    if (this.#id === undefined) {
      throw new Error(`a new ${this.constructor.name} has no id until its unit of work commits`);
    }
    return this.#id;
  }

  /** Not stored yet: its repository inserts it. */
  get isNew(): boolean {
    return this.#id === undefined;
  }

  /** The version its row had when it was read (0: new); a save expects the row to have it still. */
  get version(): number {
    return this.#version;
  }

  /**
   * Records an event of a change the aggregate made. `event` is made when the unit of work commits, after the
   * database gave a new aggregate its id, so it may read `this.id`.
   */
  protected record(event: () => NewDomainEvent): void {
    (this.#recorded ??= []).push(event);
  }

  /**
   * The events recorded since the aggregate was made or read, made now in the order they were recorded: the unit of
   * work makes them once its row is written (a new aggregate has its id by then), and clears them once committed.
   */
  recordedEvents(): NewDomainEvent[] {
    return this.#recorded?.map((event) => event()) ?? [];
  }

  /** Forgets the events recorded: they were committed. */
  clearEvents(): void {
    this.#recorded = undefined;
  }

  /** Called by its repository as its row is written: the id the database gave a new one, and the row's new version. */
  stored(id: bigint, version: number): void {
    this.#id = id;
    this.#version = version;
  }
}
