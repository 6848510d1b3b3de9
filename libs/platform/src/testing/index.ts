// Test doubles of the platform's ports, for the unit tests of a module's application layer
// (`import { RecordingDomainEvents, InMemoryUnitOfWork } from '@app/platform/testing'`). Only specs import them: the
// lint gate refuses an import from any other file. The ports' real promises are tested against the real database in
// test/transactions.e2e-spec.ts and test/events.e2e-spec.ts.
import { DomainEvents, type DomainEvent, type NewDomainEvent, type Subscription } from '../ports/domain-events';
import { UnitOfWork } from '../ports/unit-of-work';

/**
 * A UnitOfWork that runs `work` at once, joining one already running, and counts the units begun (`runs`). It undoes
 * nothing of an in-memory repository; what it keeps of a unit that throws is the events: a {@link RecordingDomainEvents}
 * given it publishes a unit's events only when the unit ends well, as the outbox does.
 */
export class InMemoryUnitOfWork extends UnitOfWork {
  runs = 0;
  private depth = 0;
  private readonly onEnd: Array<(committed: boolean) => void> = [];

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
      if (this.depth === 0) for (const end of this.onEnd.splice(0)) end(committed);
    }
  }

  /** Whether a unit is running. */
  get active(): boolean {
    return this.depth > 0;
  }

  /** Runs `end` when the running unit ends, with whether it ended well. */
  whenEnded(end: (committed: boolean) => void): void {
    this.onEnd.push(end);
  }
}

/**
 * A DomainEvents that records what is published, in order (`published`), and keeps the subscriptions added
 * (`subscriptions`) so that a test hands a handler an event with `deliver()`. Given the test's
 * {@link InMemoryUnitOfWork}, it holds as the outbox does: `publish()` outside a unit throws, and the events of a unit
 * that throws are not recorded.
 */
export class RecordingDomainEvents extends DomainEvents {
  readonly published: NewDomainEvent[] = [];
  readonly subscriptions: Subscription[] = [];

  constructor(private readonly unitOfWork?: InMemoryUnitOfWork) {
    super();
  }

  publish<E extends DomainEvent>(event: NewDomainEvent<E>): Promise<E> {
    if (this.unitOfWork && !this.unitOfWork.active) {
      return Promise.reject(new Error(`${event.name} published outside a unit of work`));
    }
    if (this.unitOfWork) this.unitOfWork.whenEnded((committed) => committed && this.published.push(event));
    else this.published.push(event);
    return Promise.resolve({
      ...event,
      id: `event-${this.published.length + 1}`,
      occurredAt: new Date().toISOString(),
    } as E);
  }

  async publishWith<T, E extends DomainEvent>(change: () => Promise<T>, eventOf: (result: T) => NewDomainEvent<E>) {
    const publish = async () => {
      const result = await change();
      await this.publish(eventOf(result));
      return result;
    };
    return this.unitOfWork ? this.unitOfWork.run(publish) : publish();
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
