import { randomInt } from 'node:crypto';
import { Agent, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, queryDatabase, type TestDatabase } from '../support/databases';
import { startService, type ServiceProcess } from '../support/service-process';
import { TEST_API_KEY, errorBody } from '../support/test-app';
import { scaled, waitFor } from '../support/wait-for';

/**
 * The store across processes of the built service on one database: two on one SQLite file, three on PostgreSQL
 * (orders of one pet from every instance), and two under a load of creates and orders with one killed (SIGKILL) and
 * started again, after which the inventory must equal a count of the pets table.
 */
const BOUND_MS = scaled(600_000);
const WAIT_MS = 240_000;
const INSTANCES = { sqlite: 2, postgres: 3 };
const AUTH = { authorization: `Bearer ${TEST_API_KEY}` };
const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' };

/** One keep-alive pool for the file's requests, so that a burst goes out on connections already open. */
const pool = new Agent({ keepAlive: true, maxSockets: 64 });

/** One request over the pool: its status and parsed body; a refused or dropped connection rejects. */
function call(url: string, method = 'GET', body?: object): Promise<{ status: number; body: any }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent: pool,
        headers: payload === undefined ? AUTH : { ...JSON_HEADERS, 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('the store across instances', () => {
  let database: TestDatabase | undefined;
  const running: ServiceProcess[] = [];
  const start = async (extra: Record<string, string> = {}) => {
    const env = { API_KEYS: TEST_API_KEY, DATABASE_URL: database!.url, EVENTS_POLL_MS: '50', ...extra };
    const service = await startService(env, scaled(30_000));
    running.push(service);
    return service;
  };
  afterEach(async () => {
    for (const service of running) service.child.kill('SIGKILL');
    await Promise.all(running.splice(0).map((service) => service.exited));
    await database?.drop();
    database = undefined;
  });

  for (const kind of DATABASE_KINDS) {
    const instances = INSTANCES[kind.name];
    it.skipIf(kind.skipReason)(
      `${kind.name}: 50 same-tick orders for one pet from ${instances} instances, one placed${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
      async () => {
        database = await kind.create();
        const services = [await start()];
        for (let n = 1; n < instances; n++) services.push(await start());
        for (let round = 0; round < 3; round++) {
          const pet = await call(`${services[0].baseUrl}/v1/pets`, 'POST', {
            name: `race-${round}`,
            categoryId: 1,
            status: 'available',
          });
          expect(pet.status).toBe(201);
          const petId = pet.body.id as number;
          // Connections opened first, so that the 50 go out together.
          await Promise.all(
            services.flatMap((service) => Array.from({ length: 17 }, () => call(`${service.baseUrl}/health/live`))),
          );
          const answers = await Promise.all(
            Array.from({ length: 50 }, (_, n) =>
              call(`${services[n % instances].baseUrl}/v1/store/orders`, 'POST', { petId }),
            ),
          );
          const placed = answers.filter(({ status }) => status === 201);
          expect(placed).toEqual([
            { status: 201, body: { id: expect.any(Number), petId, quantity: 1, status: 'placed', complete: false } },
          ]);
          expect(answers.filter(({ status }) => status !== 201)).toEqual(
            Array.from({ length: 49 }, () => ({
              status: 409,
              body: errorBody(409, 'pet_not_available', `pet ${petId} is not available`),
            })),
          );
          expect(await queryDatabase(database.url, `SELECT status FROM store_orders WHERE pet_id = ${petId}`)).toEqual([
            { status: 'placed' },
          ]);
          expect(await queryDatabase(database.url, `SELECT status FROM pets WHERE id = ${petId}`)).toEqual([
            { status: 'pending' },
          ]);
          const events = await queryDatabase(
            database.url,
            `SELECT name FROM events_outbox WHERE (name = 'pets.pet-status-changed' AND aggregate_id = '${petId}') ` +
              `OR (name = 'store.order-placed' AND aggregate_id = '${placed[0].body.id}') ORDER BY name`,
          );
          expect(events).toEqual([{ name: 'pets.pet-status-changed' }, { name: 'store.order-placed' }]);
        }
      },
      BOUND_MS,
    );

    it.skipIf(kind.skipReason)(
      `${kind.name}: the inventory equals a count of the pets after 3,000 creates and 1,000 orders, one of two instances killed${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
      async () => {
        database = await kind.create();
        const services = [await start(), await start()];
        let created = 0;
        let ordered = 0;
        const serverErrors: Array<{ status: number; body: unknown }> = [];
        let alive = [true, true];
        let running = true;
        /** A live instance's base URL, chosen at random. */
        const someInstance = () => {
          const live = services.filter((_, n) => alive[n]);
          return live[randomInt(live.length)].baseUrl;
        };
        /** A request to a live instance; a refused connection or a dropped answer (the killed one's) is no answer. */
        const attempt = async (path: string, method = 'GET', body?: object) => {
          try {
            const answer = await call(`${someInstance()}${path}`, method, body);
            if (answer.status >= 500 && answer.status !== 503) serverErrors.push(answer);
            return answer;
          } catch {
            return { status: 0, body: undefined };
          }
        };
        const worker = async (n: number) => {
          while (running && (created < 3000 || ordered < 1000)) {
            const pet = await attempt('/v1/pets', 'POST', { name: `load-${n}`, categoryId: n, status: 'available' });
            if (pet.status !== 201) continue;
            created++;
            if (ordered >= 1000 || randomInt(3) === 0) continue;
            const order = await attempt('/v1/store/orders', 'POST', { petId: pet.body.id });
            if (order.status !== 201) continue;
            ordered++;
            const path = `/v1/store/orders/${order.body.id}`;
            const fate = randomInt(4);
            if (fate === 0) await attempt(path, 'DELETE');
            else if (fate >= 1) {
              const approved = await attempt(`${path}/approve`, 'POST');
              if (approved.status === 200 && fate === 2) await attempt(`${path}/deliver`, 'POST');
              if (approved.status === 200 && fate === 3) await attempt(path, 'DELETE');
            }
          }
        };
        const workers = Array.from({ length: 12 }, (_, n) => worker(n));
        try {
          const killAt = randomInt(500, 1500);
          await waitFor(() => created >= killAt, `${killAt} creates`, WAIT_MS);
          alive = [false, true];
          services[0].child.kill('SIGKILL');
          expect(await services[0].exited).toBe('SIGKILL');
          const restartAt = created + randomInt(200, 500);
          await waitFor(() => created >= restartAt, `${restartAt} creates`, WAIT_MS);
          services[0] = await start();
          alive = [true, true];
          await waitFor(() => created >= 3000 && ordered >= 1000, '3,000 creates and 1,000 orders', WAIT_MS);
        } finally {
          running = false;
          await Promise.all(workers);
        }
        expect(serverErrors).toEqual([]);
        const counted = async (): Promise<Record<string, number>> =>
          Object.fromEntries(
            (
              await queryDatabase(
                database!.url,
                'SELECT status, COUNT(*) AS n FROM pets WHERE status IS NOT NULL GROUP BY status ORDER BY status',
              )
            ).map(({ status, n }) => [status, Number(n)]),
          );
        let inventory: unknown;
        await waitFor(
          async () => {
            inventory = (await call(`${services[1].baseUrl}/v1/store/inventory`)).body;
            return JSON.stringify(inventory) === JSON.stringify(await counted());
          },
          'the inventory to equal a count of the pets',
          WAIT_MS,
        );
        const pets = await counted();
        expect(await call(`${services[0].baseUrl}/v1/store/inventory`)).toEqual({ status: 200, body: pets });
        expect(Object.values(pets).reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(3000);
        // Every order's pet has the status its order says.
        expect(
          await queryDatabase(
            database.url,
            'SELECT o.id FROM store_orders o JOIN pets p ON p.id = o.pet_id WHERE NOT (' +
              "(o.status IN ('placed', 'approved') AND p.status = 'pending') OR " +
              "(o.status = 'delivered' AND p.status = 'sold') OR (o.status = 'cancelled' AND p.status <> 'sold'))",
          ),
        ).toEqual([]);
        expect(Number((await queryDatabase(database.url, 'SELECT COUNT(*) AS n FROM events_parked'))[0].n)).toBe(0);
      },
      BOUND_MS,
    );
  }
});
