import { SqlClient } from '@app/database';
import type { TestApp } from './test-app';
import { waitFor } from './wait-for';

/**
 * Resolves once every event committed so far has been handled by every subscription and no write is pending: from
 * then on no subscriber writes until the next event. For a test that holds the write lock and watches for the
 * request's write to wait (pets' creates are heard by the store's inventory, whose writes would wait too).
 */
export async function eventsSettled(t: TestApp): Promise<void> {
  const db = t.app.get(SqlClient);
  const unhandled = async () =>
    Number(
      (
        await db.read<{ n: number | string }>(
          'SELECT COUNT(*) AS n FROM events_outbox o JOIN events_subscriptions s ON s.event = o.name ' +
            'WHERE o.transaction_id > s.after_transaction OR ' +
            '(o.transaction_id = s.after_transaction AND o.position > s.after_position)',
        )
      )[0].n,
    );
  await waitFor(
    async () => (await unhandled()) === 0 && db.pendingWrites === 0,
    'every event committed so far to be handled',
  );
}
