import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, continueIdsAt, queryDatabase } from '@test/support/databases';
import { AUTH, JSON_CONTENT_TYPE, errorBody, startTestApp, type TestApp } from '@test/support/test-app';
import { waitFor } from '@test/support/wait-for';

const ID_RULE = 'an integer from -9223372036854775808 to 9223372036854775807';
const QUANTITY_RULE = 'quantity must be an integer from 1 to 100';
const DATE_RULE =
  'shipDate must be an RFC 3339 date-time with a time zone, such as 2026-02-28T09:30:00Z, on a day that exists';

interface Order {
  id: number;
  petId: number;
  quantity: number;
  shipDate?: string;
  status: string;
  complete: boolean;
}

/**
 * The store over HTTP, on every database kind: an order's whole life with its pet's, the refusals of each step, the
 * list, and the inventory the store keeps from the catalogue's events. Each test makes the pets and orders it reads.
 */
for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `store API on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let t: TestApp;
      beforeAll(async () => (t = await startTestApp({ kind })));
      afterAll(() => t?.close());

      const get = (path: string) => t.http().get(path).set(AUTH);
      const send = (method: 'post' | 'delete', path: string, body?: object, key?: string) => {
        const request = t.http()[method](path).set(AUTH);
        return (key ? request.set('idempotency-key', key) : request).send(body);
      };
      const place = (body: object, key?: string) => send('post', '/v1/store/orders', body, key);
      const step = (id: number | string, name: 'approve' | 'deliver') => send('post', `/v1/store/orders/${id}/${name}`);
      const cancel = (id: number | string) => send('delete', `/v1/store/orders/${id}`);
      const pet = async (status?: string): Promise<number> => {
        const created = await send('post', '/v1/pets', { name: 'Rex', categoryId: 1, ...(status ? { status } : {}) });
        return created.body.id as number;
      };
      const petStatus = async (id: number) => (await get(`/v1/pets/${id}`)).body.status as string | undefined;
      const outbox = async (orderId: number) =>
        (
          await queryDatabase(
            t.database.url,
            `SELECT name FROM events_outbox WHERE aggregate_id = '${orderId}' AND name LIKE 'store.%' ORDER BY position`,
          )
        ).map(({ name }) => name);

      it('places an order for an available pet: 201, its Location, the pet pending, store.order-placed', async () => {
        const petId = await pet('available');
        const placed = await place({ petId });
        expect(placed.status).toBe(201);
        const { id } = placed.body as Order;
        expect(placed.headers).toMatchObject({ 'content-type': JSON_CONTENT_TYPE, location: `/v1/store/orders/${id}` });
        expect(placed.body).toEqual({ id, petId, quantity: 1, status: 'placed', complete: false });
        expect(await petStatus(petId)).toBe('pending');
        const fetched = await get(`/v1/store/orders/${id}`);
        expect([fetched.status, fetched.body]).toEqual([200, placed.body]);
        expect(await outbox(id)).toEqual(['store.order-placed']);
      });

      it('keeps a quantity and a ship date, the date in UTC to the millisecond', async () => {
        const petId = await pet('available');
        const placed = await place({ petId, quantity: 100, shipDate: '2026-12-01T10:30:00.5+01:00' });
        expect(placed.body).toEqual({
          id: expect.any(Number),
          petId,
          quantity: 100,
          shipDate: '2026-12-01T09:30:00.500Z',
          status: 'placed',
          complete: false,
        });
        expect((await get(`/v1/store/orders/${placed.body.id}`)).body).toEqual(placed.body);
      });

      it('refuses a pet that is not available (409) and one that does not exist (422), and places nothing', async () => {
        const sold = await pet('sold');
        const none = await pet();
        for (const petId of [sold, none]) {
          const refused = await place({ petId });
          expect([refused.status, refused.body]).toEqual([
            409,
            errorBody(409, 'pet_not_available', `pet ${petId} is not available`),
          ]);
        }
        const unknown = await place({ petId: 987654321 });
        expect([unknown.status, unknown.body]).toEqual([
          422,
          errorBody(422, 'unknown_pet', 'petId 987654321 names no pet'),
        ]);
        expect(await petStatus(sold)).toBe('sold');
        expect(await petStatus(none)).toBeUndefined();
        const orders = await queryDatabase(
          t.database.url,
          `SELECT id FROM store_orders WHERE pet_id IN (${sold}, ${none}, 987654321)`,
        );
        expect(orders).toEqual([]);
      });

      it('takes an order through approved to delivered: the pet sold, one event a step, complete', async () => {
        const petId = await pet('available');
        const { id } = (await place({ petId })).body as Order;
        const approved = await step(id, 'approve');
        expect([approved.status, approved.body]).toEqual([
          200,
          { id, petId, quantity: 1, status: 'approved', complete: false },
        ]);
        expect(await petStatus(petId)).toBe('pending');
        const delivered = await step(id, 'deliver');
        expect([delivered.status, delivered.body]).toEqual([
          200,
          { id, petId, quantity: 1, status: 'delivered', complete: true },
        ]);
        expect(await petStatus(petId)).toBe('sold');
        expect(await outbox(id)).toEqual(['store.order-placed', 'store.order-approved', 'store.order-delivered']);
      });

      it('cancels a placed and an approved order with DELETE: 200, the order kept cancelled, the pet available', async () => {
        const petId = await pet('available');
        const first = (await place({ petId })).body as Order;
        const cancelled = await cancel(first.id);
        expect([cancelled.status, cancelled.body]).toEqual([200, { ...first, status: 'cancelled' }]);
        expect((await get(`/v1/store/orders/${first.id}`)).body).toEqual(cancelled.body);
        expect(await petStatus(petId)).toBe('available');
        const second = (await place({ petId })).body as Order;
        await step(second.id, 'approve');
        expect((await cancel(second.id)).body).toEqual({ ...second, status: 'cancelled' });
        expect(await petStatus(petId)).toBe('available');
        expect(await outbox(second.id)).toEqual([
          'store.order-placed',
          'store.order-approved',
          'store.order-cancelled',
        ]);
      });

      it('refuses each step its status does not allow with 409 order_unexpected_state, and changes nothing', async () => {
        const petId = await pet('available');
        const { id } = (await place({ petId })).body as Order;
        const early = await step(id, 'deliver');
        expect([early.status, early.body]).toEqual([
          409,
          errorBody(409, 'order_unexpected_state', `order ${id} is placed: only an order approved can be delivered`),
        ]);
        await step(id, 'approve');
        const twice = await step(id, 'approve');
        expect(twice.body).toEqual(
          errorBody(409, 'order_unexpected_state', `order ${id} is approved: only an order placed can be approved`),
        );
        await step(id, 'deliver');
        const late = await cancel(id);
        expect([late.status, late.body]).toEqual([
          409,
          errorBody(
            409,
            'order_unexpected_state',
            `order ${id} is delivered: only an order placed or approved can be cancelled`,
          ),
        ]);
        expect(await petStatus(petId)).toBe('sold');
        expect((await get(`/v1/store/orders/${id}`)).body.status).toBe('delivered');
        const other = (await place({ petId: await pet('available') })).body as Order;
        await cancel(other.id);
        const again = await cancel(other.id);
        expect(again.body).toEqual(
          errorBody(
            409,
            'order_unexpected_state',
            `order ${other.id} is cancelled: only an order placed or approved can be cancelled`,
          ),
        );
      });

      it('answers a retry of a keyed place or step with the first answer, and does it once', async () => {
        const petId = await pet('available');
        const key = `place-${kind.name}-${Date.now()}`;
        const first = await place({ petId }, key);
        const again = await place({ petId }, key);
        expect([first.status, again.status, again.text, again.headers['idempotent-replayed']]).toEqual([
          201,
          201,
          first.text,
          'true',
        ]);
        const approveKey = `${key}-approve`;
        const approved = await send('post', `/v1/store/orders/${first.body.id}/approve`, undefined, approveKey);
        const replayed = await send('post', `/v1/store/orders/${first.body.id}/approve`, undefined, approveKey);
        expect([approved.status, replayed.status, replayed.text, replayed.headers['idempotent-replayed']]).toEqual([
          200,
          200,
          approved.text,
          'true',
        ]);
        expect(await queryDatabase(t.database.url, `SELECT status FROM store_orders WHERE pet_id = ${petId}`)).toEqual([
          { status: 'approved' },
        ]);
        expect(await outbox(first.body.id)).toEqual(['store.order-placed', 'store.order-approved']);
      });

      it.each(['approve', 'deliver'] as const)(
        "refuses a key used for one order's %s on another order's (422), and leaves that order as it was",
        async (name) => {
          const [one, two] = [
            await place({ petId: await pet('available') }),
            await place({ petId: await pet('available') }),
          ];
          if (name === 'deliver') for (const { body } of [one, two]) await step(body.id, 'approve');
          const key = `${name}-${kind.name}-${Date.now()}`;
          const first = await send('post', `/v1/store/orders/${one.body.id}/${name}`, undefined, key);
          const other = await send('post', `/v1/store/orders/${two.body.id}/${name}`, undefined, key);
          expect(first.status).toBe(200);
          expect([other.status, other.headers['idempotent-replayed'], other.body]).toEqual([
            422,
            undefined,
            errorBody(
              422,
              'idempotency_key_reused',
              'this Idempotency-Key was used with a different request; use a new key for a new request',
            ),
          ]);
          const status = (id: number) => get(`/v1/store/orders/${id}`).then((answer) => answer.body.status);
          expect([await status(one.body.id), await status(two.body.id)]).toEqual([
            name === 'approve' ? 'approved' : 'delivered',
            name === 'approve' ? 'placed' : 'approved',
          ]);
        },
      );

      it.each([
        [{}, 'petId is required'],
        [{ petId: '1' }, `petId must be ${ID_RULE}`],
        [{ petId: 1.5 }, `petId must be ${ID_RULE}`],
        [{ petId: 1, quantity: 0 }, QUANTITY_RULE],
        [{ petId: 1, quantity: 101 }, QUANTITY_RULE],
        [{ petId: 1, quantity: 1.5 }, QUANTITY_RULE],
        [{ petId: 1, quantity: '2' }, QUANTITY_RULE],
        [{ petId: 1, quantity: null }, QUANTITY_RULE],
        [{ petId: 1, shipDate: '2026-02-30T00:00:00Z' }, DATE_RULE],
        [{ petId: 1, shipDate: '2026-12-01T09:30:00' }, DATE_RULE],
        [{ petId: 1, status: 'placed' }, "unknown property 'status'"],
      ])('refuses %j with 400 invalid_body', async (body, message) => {
        const response = await place(body);
        expect([response.status, response.body]).toEqual([400, errorBody(400, 'invalid_body', message)]);
      });

      it('answers 404 for an order that does not exist, to every operation, and 400 for an id that is no int64', async () => {
        const missing = errorBody(404, 'order_not_found', 'order 9223372036854775807 does not exist');
        for (const response of [
          await get('/v1/store/orders/9223372036854775807'),
          await step('9223372036854775807', 'approve'),
          await step('9223372036854775807', 'deliver'),
          await cancel('9223372036854775807'),
        ]) {
          expect([response.status, response.body]).toEqual([404, missing]);
        }
        const bad = await get('/v1/store/orders/9223372036854775808');
        expect([bad.status, bad.body]).toEqual([
          400,
          errorBody(400, 'invalid_parameter', `orderId must be ${ID_RULE}`),
        ]);
      });

      it('pages by ascending id, filtered by status, following Link: rel="next"', async () => {
        const made: Order[] = [];
        for (let i = 0; i < 3; i++) made.push((await place({ petId: await pet('available') })).body as Order);
        await step(made[1].id, 'approve');
        const from = made[0].id - 1;
        const first = await get(`/v1/store/orders?limit=2&after=${from}`);
        expect([first.status, first.body]).toEqual([200, [made[0], { ...made[1], status: 'approved' }]]);
        expect(first.headers.link).toBe(`</v1/store/orders?limit=2&after=${made[1].id}>; rel="next"`);
        const next = await get(/<([^>]+)>/.exec(first.headers.link)![1]);
        expect([next.status, next.body, next.headers.link]).toEqual([200, [made[2]], undefined]);
        const placed = await get(`/v1/store/orders?status=placed&after=${from}`);
        expect(placed.body).toEqual([made[0], made[2]]);
        const refused = await get('/v1/store/orders?status=lost');
        expect([refused.status, refused.body]).toEqual([
          400,
          errorBody(400, 'invalid_parameter', 'status must be one of placed, approved, delivered, cancelled'),
        ]);
      });

      it('keeps order ids past 2^53 exact', async () => {
        await continueIdsAt(t.database.url, 'store_orders', 2n ** 53n);
        const petId = await pet('available');
        const placed = await place({ petId });
        expect(placed.text).toBe(
          `{"id":9007199254740992,"petId":${petId},"quantity":1,"status":"placed","complete":false}`,
        );
        expect(placed.headers.location).toBe('/v1/store/orders/9007199254740992');
        expect((await step('9007199254740992', 'approve')).text).toBe(
          `{"id":9007199254740992,"petId":${petId},"quantity":1,"status":"approved","complete":false}`,
        );
        const page = await get('/v1/store/orders?limit=1&after=9007199254740991');
        expect(JSON.parse(page.text.replace(/"id":(\d+)/, '"id":"$1"'))).toEqual([
          { id: '9007199254740992', petId, quantity: 1, status: 'approved', complete: false },
        ]);
      });

      it("keeps the inventory from the catalogue's events: equal to a count of the pets once they are handled", async () => {
        for (const status of ['available', 'available', 'sold', undefined]) await pet(status);
        const orders: Order[] = [];
        for (let i = 0; i < 3; i++) orders.push((await place({ petId: await pet('available') })).body as Order);
        await step(orders[0].id, 'approve');
        await step(orders[0].id, 'deliver');
        await cancel(orders[1].id);
        const counted = async () =>
          Object.fromEntries(
            (
              await queryDatabase(
                t.database.url,
                'SELECT status, COUNT(*) AS n FROM pets WHERE status IS NOT NULL GROUP BY status ORDER BY status',
              )
            ).map(({ status, n }) => [status, Number(n)]),
          );
        let inventory: Record<string, number> = {};
        await waitFor(async () => {
          inventory = (await get('/v1/store/inventory')).body as Record<string, number>;
          return JSON.stringify(inventory) === JSON.stringify(await counted());
        }, 'the inventory to count every pet');
        const answer = await get('/v1/store/inventory');
        expect([answer.status, answer.headers['content-type']]).toEqual([200, JSON_CONTENT_TYPE]);
        expect(answer.body).toEqual(await counted());
        expect(Object.keys(answer.body)).toEqual(['available', 'pending', 'sold']);
        const refused = await get('/v1/store/inventory?status=sold');
        expect([refused.status, refused.body]).toEqual([
          400,
          errorBody(400, 'invalid_parameter', "unknown property 'status'"),
        ]);
      });

      it('documents every store operation as beta, and answers 401 without a key', async () => {
        const document = (await t.http().get('/v1/openapi.json')).body as {
          paths: Record<
            string,
            Record<string, { operationId: string; description: string; tags: string[]; 'x-stability'?: string }>
          >;
        };
        const store = Object.values(document.paths)
          .flatMap((item) => Object.values(item))
          .filter(({ tags }) => tags.includes('store'));
        expect(store.map(({ operationId }) => operationId).sort()).toEqual([
          'approveOrder',
          'deleteOrder',
          'deliverOrder',
          'getInventory',
          'getOrderById',
          'listOrders',
          'placeOrder',
        ]);
        for (const operation of store) {
          expect(operation['x-stability']).toBe('beta');
          expect(operation.description).toMatch(
            /^\*\*Beta\.\*\* Complete and supported, but it may still change in a minor release/,
          );
        }
        const pets = Object.values(document.paths['/pets']);
        expect(pets.map((operation) => operation['x-stability'])).toEqual([undefined, undefined]);
        const refused = await t.http().get('/v1/store/inventory');
        expect([refused.status, refused.body]).toEqual([
          401,
          errorBody(401, 'missing_api_key', 'an API key is required: send Authorization: Bearer <key>'),
        ]);
      });
    },
  );
}
