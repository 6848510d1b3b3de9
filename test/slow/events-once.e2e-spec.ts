import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, queryDatabase, type TestDatabase } from '../support/databases';
import { createWhileOneIsKilled } from '../support/kill-under-load';
import { buildWithGenerated } from '../support/repository-copy';
import { startService, type ServiceProcess } from '../support/service-process';
import { TEST_API_KEY } from '../support/test-app';
import { scaled, waitFor } from '../support/wait-for';

/**
 * pets.pet-created heard exactly once per pet by a subscriber of a module of its own, with instances killed (SIGKILL)
 * at a random point of the load and started again: the subscriber a module `npm run generate:module -- audits
 * --subscribes-to pets.pet-created` writes, built in a copy of this repository and run as the service runs. Its
 * handler records each event in `audits_pet_created`, keyed by the event's id, in the transaction that moves its
 * progress.
 */
const CREATES = 10_000;
const BOUND_MS = scaled(600_000);
/** How long a wait of the load may last (waitFor scales it to the machine's load). */
const WAIT_MS = 240_000;
const INSTANCES = { sqlite: 2, postgres: 3 };

describe('pets.pet-created, heard once per pet across kill -9', () => {
  let copy: string;
  let main: string;

  beforeAll(async () => {
    ({ copy, main } = await buildWithGenerated('petstore-events-once-', [
      ['audits', '--bare', '--subscribes-to', 'pets.pet-created'],
    ]));
  }, BOUND_MS);
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  for (const kind of DATABASE_KINDS) {
    const instances = INSTANCES[kind.name];
    it.skipIf(kind.skipReason)(
      `${kind.name}, ${instances} instances, ${CREATES} creates, one instance killed and started again${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
      async () => {
        const database: TestDatabase = await kind.create();
        const running: ServiceProcess[] = [];
        const start = async () => {
          const env = { API_KEYS: TEST_API_KEY, DATABASE_URL: database.url, EVENTS_POLL_MS: '50' };
          const service = await startService(env, scaled(30_000), main);
          running.push(service);
          return service;
        };
        const rows = (sql: string) => queryDatabase(database.url, sql);
        const count = async (sql: string) => Number((await rows(sql))[0].n);
        try {
          const acked = await createWhileOneIsKilled(start, { instances, creates: CREATES, waitMs: WAIT_MS });
          // Every pet committed, acknowledged or not (its answer lost with the killed instance), heard once.
          const pets = await count('SELECT COUNT(*) AS n FROM pets');
          await waitFor(
            async () => (await count('SELECT COUNT(*) AS n FROM audits_pet_created')) >= pets,
            'the subscriber to hear every pet',
            WAIT_MS,
          );
          expect(await count('SELECT COUNT(*) AS n FROM audits_pet_created')).toBe(pets);
          expect(
            await rows(
              'SELECT aggregate_id FROM audits_pet_created GROUP BY aggregate_id HAVING COUNT(*) > 1 ' +
                'UNION ALL SELECT aggregate_id FROM events_outbox GROUP BY aggregate_id HAVING COUNT(*) > 1',
            ),
          ).toEqual([]);
          // Each pet has its event, and no event is of a pet that did not commit.
          expect(
            await rows(
              'SELECT CAST(p.id AS TEXT) AS id FROM pets p LEFT JOIN audits_pet_created a ' +
                'ON a.aggregate_id = CAST(p.id AS TEXT) WHERE a.aggregate_id IS NULL ' +
                'UNION ALL SELECT a.aggregate_id FROM audits_pet_created a LEFT JOIN pets p ' +
                'ON a.aggregate_id = CAST(p.id AS TEXT) WHERE p.id IS NULL',
            ),
          ).toEqual([]);
          const heard = new Set(
            (await rows('SELECT aggregate_id FROM audits_pet_created')).map((r) => String(r.aggregate_id)),
          );
          expect(acked.filter((id) => !heard.has(id))).toEqual([]);
          expect(await count('SELECT COUNT(*) AS n FROM events_parked')).toBe(0);
        } finally {
          for (const service of running) service.child.kill('SIGKILL');
          await Promise.all(running.map((service) => service.exited));
          await database.drop();
        }
      },
      BOUND_MS,
    );
  }
});
