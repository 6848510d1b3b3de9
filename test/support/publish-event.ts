import { DomainEvents, UnitOfWork, type DomainEvent, type NewDomainEvent } from '@app/platform/ports';
import type { TestApp } from './test-app';

/**
 * Publishes `event` in a unit of work of the running application, as its publisher's change would: committed, then
 * handled by every subscriber to it. For a subscriber's test when the publishing module has no operation a test can
 * call to make that event (or one that needs more set-up than the event itself); its payload is the test's own, of the
 * event's shape where the handler reads it.
 */
export async function publishEvent<E extends DomainEvent>(t: TestApp, event: NewDomainEvent<E>): Promise<E> {
  const unitOfWork = t.app.get(UnitOfWork);
  const events = t.app.get(DomainEvents);
  return unitOfWork.run(() => events.publish(event));
}
