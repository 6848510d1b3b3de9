import { SqlClient } from '@app/database';
import { Outbox } from '@app/events';
import type { DomainEvent, NewDomainEvent } from '@app/platform/ports';
import type { TestApp } from './test-app';

/**
 * Writes `event` to the outbox of the running application in a transaction of its own, as a unit of work writes what
 * an aggregate recorded: committed, then handled by every subscriber to it. For a subscriber's test when the
 * publishing module has no operation a test can call to make that event (or one that needs more set-up than the event
 * itself); its payload is the test's own, of the event's shape where the handler reads it.
 */
export async function publishEvent<E extends DomainEvent>(t: TestApp, event: NewDomainEvent<E>): Promise<E> {
  const db = t.app.get(SqlClient);
  const outbox = t.app.get(Outbox);
  const [recorded] = await db.transaction(() => outbox.publish(event));
  return recorded as E;
}
