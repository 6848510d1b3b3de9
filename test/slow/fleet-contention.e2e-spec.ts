import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postgres, queryDatabase } from '../support/databases';
import { logLinesOf, startService, type ServiceProcess } from '../support/service-process';
import { AUTH, TEST_API_KEY } from '../support/test-app';
import { scaled, waitFor } from '../support/wait-for';

/**
 * The fleet's path under the load a team puts on it (issue 53): two instances on one PostgreSQL database, with a
 * module of the test's own (service-with-holds.mjs) that reserves pets in a unit of work and counts what the events
 * say. 16 clients, each sending its next request as soon as the last is answered (about 750 requests a second on 2
 * cores; before issue 53, 13 of 12,000 keyed holds were answered 503 under it), for LOAD_MS: creates of pets, keyed holds
 * on available pets, and cancels that give the pets back; one instance killed with SIGKILL halfway and started again.
 * Contention is the database's business, so no answer is a 503; every subscriber handles its events within a second
 * (p99) and never reports a failed read; every count of the read model is exact; no pet is held twice. Before the
 * load, the serializable promise across three instances: of 50 same-tick holds of one pet, exactly one is placed.
 */
const MAIN = resolve(__dirname, '../support/service-with-holds.mjs');
const CLIENTS = 16;
const LOAD_MS = 40_000;
const BOUND_MS = scaled(300_000);
const SUBSCRIBERS = ['holds.count-pet-created', 'holds.count-hold-placed', 'holds.count-hold-cancelled'];
/**
 * The handling delay's bucket (seconds) the p99 must fall in: 1 s on a quiet machine, the next of the dispatcher's
 * buckets up as the run's time scale grows, as every deadline of the suite does (`npm run bench` measures the delay
 * itself). The figures of the 0.1, 0.25 and 1 s buckets are printed whatever the scale.
 */
const WITHIN_LE = ['1', '2.5', '5', '10'].find((le) => Number(le) * 1000 >= scaled(1000)) ?? '10';

interface Answer {
  what: string;
  status: number;
  body: Record<string, string>;
}

describe.skipIf(postgres.skipReason)(
  `the fleet on PostgreSQL under contention${postgres.skipReason ? ` (skipped: ${postgres.skipReason})` : ''}`,
  () => {
    it(
      '2 instances, 16 clients of creates, keyed holds and cancels, one instance killed: no 503, subscribers within 1 s, every count exact',
      async () => {
        const database = await postgres.create();
        const env = { API_KEYS: TEST_API_KEY, DATABASE_URL: database.url, RATE_LIMIT_PER_MINUTE: '0' };
        const instances: ServiceProcess[] = [];
        const everyInstance: ServiceProcess[] = [];
        const start = async () => {
          const instance = await startService(env, scaled(30_000), MAIN);
          everyInstance.push(instance);
          return instance;
        };
        try {
          instances.push(await start(), await start());
          const answers: Answer[] = [];
          /** Sends until some instance answers: a request that met a killed instance goes to the other one. */
          const send = async (what: string, path: string, body: object | undefined, client: number, key?: string) => {
            for (let attempt = 0; ; attempt++) {
              const instance = instances[(client + attempt) % instances.length];
              try {
                const response = await fetch(`${instance.baseUrl}${path}`, {
                  method: 'POST',
                  headers: {
                    ...AUTH,
                    ...(body && { 'content-type': 'application/json' }),
                    ...(key && { 'idempotency-key': key }),
                  },
                  body: body && JSON.stringify(body),
                });
                const answer = { what, status: response.status, body: (await response.json()) as Answer['body'] };
                answers.push(answer);
                return answer;
              } catch {
                // The instance is gone (killed): its connection failed. The next attempt takes the other one.
                if (attempt > 200) throw new Error(`${what}: no instance answered`);
                await new Promise((wait) => setTimeout(wait, 20));
              }
            }
          };
          const available: string[] = [];
          const placed: string[] = [];
          const createPet = async (client: number) => {
            const pet = await send('create', '/v1/pets', { name: 'held', categoryId: 1, status: 'available' }, client);
            if (pet.status === 201) available.push(String(pet.body.id));
          };
          const take = (from: string[]) => from.splice(Math.floor(Math.random() * from.length), 1)[0];
          for (let n = 0; n < 100; n++) await createPet(0);

          const third = await start();
          const contested = available.pop()!;
          const sameTick = await Promise.all(
            Array.from({ length: 50 }, (_, n) =>
              fetch(`${[...instances, third][n % 3].baseUrl}/v1/holds`, {
                method: 'POST',
                headers: { ...AUTH, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
                body: JSON.stringify({ petId: contested }),
              }).then((response) => response.status),
            ),
          );
          expect(sameTick.sort()).toEqual([201, ...Array(49).fill(409)]);
          third.child.kill('SIGTERM');
          expect(await third.exited).toBe(0);

          const deadline = Date.now() + LOAD_MS;
          const clients = Array.from({ length: CLIENTS }, async (_, client) => {
            while (Date.now() < deadline) {
              const dice = Math.random();
              if (dice < 0.35 || available.length === 0) await createPet(client);
              else if (dice < 0.75) {
                // Keyed: a hold whose answer was lost with its instance is sent again with its key, never twice.
                const hold = await send('hold', '/v1/holds', { petId: take(available) }, client, randomUUID());
                if (hold.status === 201) placed.push(hold.body.id);
              } else if (placed.length > 0) {
                const cancelled = await send('cancel', `/v1/holds/${take(placed)}/cancel`, undefined, client);
                if (cancelled.status === 200) available.push(cancelled.body.petId);
              }
            }
          });
          // Halfway, one instance dies with its transactions and handlers in flight, and a new one takes its place.
          await waitFor(() => Date.now() > deadline - LOAD_MS / 2, 'halfway through the load', LOAD_MS);
          const killed = instances.pop()!;
          killed.child.kill('SIGKILL');
          await killed.exited;
          instances.push(await start());
          await Promise.all(clients);

          // Contention is the database's business: not one 503, and only the answers the load expects.
          const unexpected = answers.filter(
            ({ what, status }) =>
              !(
                (what === 'create' && status === 201) ||
                (what === 'hold' && status === 201) ||
                // A cancel sent again after its instance died, which the first send had done.
                (what === 'cancel' && (status === 200 || status === 409))
              ),
          );
          expect(unexpected).toEqual([]);
          const counted = (what: string) => answers.filter((answer) => answer.what === what).length;
          expect(answers.length, 'a load: 60 requests a second at least').toBeGreaterThan((LOAD_MS / 1000) * 60);
          expect(counted('hold')).toBeGreaterThan(500);
          expect(counted('cancel')).toBeGreaterThan(100);

          // Every count of the read model exact: each event of a committed change heard once, across the kill.
          const count = async (sql: string) => Number((await queryDatabase(database.url, sql))[0].n);
          const expected = async () => [
            await count('SELECT COUNT(*) AS n FROM pets'),
            await count('SELECT COUNT(*) AS n FROM holds'),
            await count("SELECT COUNT(*) AS n FROM holds WHERE status = 'cancelled'"),
          ];
          const heard = async () =>
            Promise.all(
              ['pets.pet-created', 'holds.hold-placed', 'holds.hold-cancelled'].map(async (event) =>
                count(`SELECT COALESCE(MAX(n), 0) AS n FROM holds_counts WHERE counter = '${event}'`),
              ),
            );
          await waitFor(
            async () => JSON.stringify(await heard()) === JSON.stringify(await expected()),
            'every event heard',
            scaled(60_000),
          );
          // Serializable: no pet held twice, and every held pet pending.
          expect(
            await queryDatabase(
              database.url,
              "SELECT h.pet_id, p.status FROM holds h JOIN pets p ON p.id = h.pet_id WHERE h.status = 'placed' " +
                "AND (p.status <> 'pending' OR (SELECT COUNT(*) FROM holds o WHERE o.pet_id = h.pet_id AND o.status = 'placed') > 1)",
            ),
          ).toEqual([]);

          // Each subscriber within a second of the commit (WITHIN_LE on a loaded machine), p99, on the instances that
          // ran to the end.
          const delays = await Promise.all(instances.map(handlingDelays));
          const retries = await Promise.all(instances.map(transactionRetries));
          // The figures behind the verdicts, for the issue's note: answers by route and status, transactions run
          // again, events handled within 0.1, 0.25 and 1 s of their commit.
          const byStatus: Record<string, number> = {};
          for (const { what, status } of answers)
            byStatus[`${what} ${status}`] = (byStatus[`${what} ${status}`] ?? 0) + 1;
          const sum = (subscriber: string, le: string) =>
            delays.reduce((total, delay) => total + (delay.get(`${subscriber} ${le}`) ?? 0), 0);
          const handled = SUBSCRIBERS.map((subscriber) =>
            [subscriber, ...['0.1', '0.25', '1', '+Inf'].map((le) => sum(subscriber, le))].join(' '),
          );
          console.log(JSON.stringify({ byStatus, retries, handled, withinSeconds: WITHIN_LE }));
          for (const subscriber of SUBSCRIBERS) {
            const within = sum(subscriber, WITHIN_LE);
            const all = sum(subscriber, '+Inf');
            expect(all, subscriber).toBeGreaterThan(0);
            expect({ subscriber, within: within / all >= 0.99 }).toEqual({ subscriber, within: true });
          }
          // Never a failed read of the outbox, on any instance.
          const warnings = everyInstance.flatMap((instance) =>
            logLinesOf(instance.output()).filter((line) => line.level >= 40 && line.context === 'Events'),
          );
          expect(warnings).toEqual([]);
        } finally {
          for (const instance of everyInstance) instance.child.kill('SIGKILL');
          await Promise.all(everyInstance.map((instance) => instance.exited));
          await database.drop();
        }
      },
      BOUND_MS,
    );
  },
);

/** `<subscriber> <le>` to the count of events handled within `le` seconds, from one instance's histogram. */
async function handlingDelays(instance: ServiceProcess): Promise<Map<string, number>> {
  const text = await (await fetch(`${instance.baseUrl}/metrics`)).text();
  const buckets = new Map<string, number>();
  const bucket = /^petstore_events_handling_delay_seconds_bucket\{le="([^"]+)",subscriber="([^"]+)"\} (\d+)$/gm;
  for (const [, le, subscriber, n] of text.matchAll(bucket)) buckets.set(`${subscriber} ${le}`, Number(n));
  return buckets;
}

/** `petstore_transaction_retries_total` of one instance. */
async function transactionRetries(instance: ServiceProcess): Promise<number> {
  const text = await (await fetch(`${instance.baseUrl}/metrics`)).text();
  return Number(/^petstore_transaction_retries_total (\d+)$/m.exec(text)?.[1] ?? 0);
}
