// Test doubles of the platform's ports, for the unit tests of a module's application layer
// (`import { RecordingDomainEvents, InMemoryUnitOfWork } from '@app/platform/testing'`). Only specs import them: the
// lint gate refuses an import from any other file. The ports' real promises are tested against the real database in
// test/transactions.e2e-spec.ts and test/events.e2e-spec.ts.
import type { AggregateRoot } from '../domain/aggregate-root';
import { DomainEvents, type DomainEvent, type NewDomainEvent, type Subscription } from '../ports/domain-events';
import { UnitOfWork } from '../ports/unit-of-work';

/**
 * A UnitOfWork that runs `work` at once, joining one already running, and counts the units begun (`runs`). The
 * test's in-memory repositories tell it what they save (`saved`, given to their constructor): when a unit ends well,
 * the events those aggregates recorded are `published`, in order, as the outbox commits them; a unit that throws
 * publishes none. It undoes nothing of an in-memory repository, and runs no unit twice.
 */
export class InMemoryUnitOfWork extends UnitOfWork {
  runs = 0;
  readonly published: NewDomainEvent[] = [];
  private depth = 0;
  private saves = new Set<AggregateRoot>();

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.depth === 0) this.runs++;
    this.depth++;
    let committed = false;
    try {
      const result = await work();
      committed = true;
      return result;
    } finally {
      this.depth--;
      if (this.depth === 0) this.end(committed);
    }
  }

  /** What an in-memory repository calls as it saves `aggregate` (pass it bound: `unitOfWork.saved`). */
  readonly saved = (aggregate: AggregateRoot): void => {
    if (this.depth === 0) throw new Error(`${aggregate.constructor.name} saved outside a unit of work`);
    this.saves.add(aggregate);
  };

  private end(committed: boolean): void {
    const saves = this.saves;
    this.saves = new Set();
    for (const aggregate of saves) {
      if (committed) this.published.push(...aggregate.recordedEvents());
      aggregate.clearEvents();
    }
  }
}

/**
 * A DomainEvents that keeps the subscriptions added (`subscriptions`), so that a test hands a handler an event with
 * `deliver()`, in the test's {@link InMemoryUnitOfWork} when it is given one.
 */
export class RecordingDomainEvents extends DomainEvents {
  readonly subscriptions: Subscription[] = [];

  constructor(private readonly unitOfWork?: InMemoryUnitOfWork) {
    super();
  }

  subscribe<E extends DomainEvent>(subscription: Subscription<E>): void {
    this.subscriptions.push(subscription as unknown as Subscription);
  }

  /** Hands `event` to every subscription of its name, as the dispatcher would after its commit. */
  async deliver(event: NewDomainEvent): Promise<void> {
    const whole = { ...event, id: 'delivered', occurredAt: new Date().toISOString() } as DomainEvent;
    for (const subscription of this.subscriptions.filter(({ event: name }) => name === event.name)) {
      await (this.unitOfWork ? this.unitOfWork.run(() => subscription.handle(whole)) : subscription.handle(whole));
    }
  }
}
