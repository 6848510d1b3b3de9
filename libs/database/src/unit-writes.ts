import type { NewDomainEvent } from '@app/platform/ports';

/**
 * A row a repository writes for an aggregate when the unit of work commits (`SqlClient.persist()`), in PostgreSQL's
 * spelling (`dialect.statement()`), made from the aggregate as it is then.
 */
export type UnitWrite =
  /** A new aggregate's row, by a statement of `dialect.insertReturningId()`: told the id the database gave it. */
  | { readonly sql: string; readonly parameters: unknown[]; readonly inserted: (id: bigint) => void }
  /**
   * A change of a row read at a version, guarded by it (`... WHERE id = $1 AND version = $2`): it must change exactly
   * one row, or another writer changed the row since it was read, and the unit of work runs again
   * ({@link ConcurrentChange}). Told once it changed it.
   */
  | { readonly sql: string; readonly parameters: unknown[]; readonly updated: () => void };

/** What the unit of work asks of an aggregate it writes: the events it recorded (AggregateRoot). */
export interface EventSource {
  recordedEvents(): NewDomainEvent[];
  clearEvents(): void;
}

/**
 * A unit of work's state: the aggregates its repositories saved, each with how its row is written (in the order first
 * saved; saved again, it is written once, as it is at the commit), and the aggregates it read, each read once.
 */
export class PendingUnit {
  readonly saved = new Map<EventSource, () => UnitWrite>();
  readonly read = new Map<string, Promise<unknown>>();

  /** The rows to write, made now from the aggregates as they are. */
  writes(): UnitWrite[] {
    return [...this.saved.values()].map((write) => write());
  }

  get sources(): Iterable<EventSource> {
    return this.saved.keys();
  }
}

/**
 * A guarded write changed no row: another writer changed it since it was read (or it is gone). The unit of work that
 * made it is rolled back and runs again from its reads, where its aggregate's rules decide anew.
 */
export class ConcurrentChange extends Error {
  constructor(readonly sql: string) {
    super('the row changed since it was read: another writer committed first');
    this.name = 'ConcurrentChange';
  }
}
