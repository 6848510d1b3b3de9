import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseSettings, openDatabase, type SqlClient } from '@app/database';
import { DATABASE_KINDS, type TestDatabase } from '@test/support/databases';
import { serviceTables } from '@test/support/service-modules';
import { SqlInventoryRepository } from '../src/infrastructure/sql-inventory.repository';

/** The inventory's rules, where they are kept: in the SQL of its repository, on each database. */
for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `the inventory's repository, on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let database: TestDatabase;
      let opened: { sql: SqlClient; close(): Promise<void> };
      let inventory: SqlInventoryRepository;
      const counts = async () => Object.fromEntries(await inventory.counts());

      beforeAll(async () => {
        database = await kind.create();
        const settings = DatabaseSettings.fromEnvironment({ DATABASE_URL: database.url });
        opened = await openDatabase(settings, await serviceTables());
        inventory = new SqlInventoryRepository(opened.sql);
      });
      afterAll(async () => {
        await opened?.close();
        await database?.drop();
      });

      it('counts pets by status from their creations and changes', async () => {
        await inventory.petAdded(1n, 'available');
        await inventory.petAdded(2n, 'available');
        await inventory.petAdded(3n, 'sold');
        await inventory.petMoved(1n, 'available', 'pending');
        expect(await counts()).toEqual({ available: 1, pending: 1, sold: 1 });
        await inventory.petMoved(1n, 'pending', 'available');
        expect(await counts()).toEqual({ available: 2, pending: 0, sold: 1 });
      });

      it('counts each pet and change once, whatever order the two subscriptions hear them in', async () => {
        // The change is heard before the creation: the pet counts at its new status, and its creation adds nothing.
        await inventory.petMoved(10n, 'available', 'pending');
        await inventory.petAdded(10n, 'available');
        // Heard twice (the inventory's seed had it already): once.
        await inventory.petAdded(11n, 'available');
        await inventory.petAdded(11n, 'available');
        await inventory.petMoved(11n, 'available', 'pending');
        await inventory.petMoved(11n, 'available', 'pending');
        expect(await counts()).toEqual({ available: 2, pending: 2, sold: 1 });
      });
    },
  );
}
