import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open, parseResponses, type RawResponse } from './support/raw-client';
import { waitFor } from './support/wait-for';
import { AUTH, JSON_CONTENT_TYPE, TEST_API_KEY, errorBody, startTestApp, type TestApp } from './support/test-app';

/*
 * Requests without a body (no Content-Length, no Transfer-Encoding: RFC 9112 6.3), as `curl -X DELETE -H
 * 'Content-Type: application/json'` and Go's `http.NewRequest(method, url, nil)` send them, and with
 * `Content-Length: 0`: answered at once whatever their Content-Type, on a connection that stays open. An operation that
 * takes no body runs; one that needs a body says it is missing; a body an operation does not take is refused.
 */
const MISSING = errorBody(400, 'invalid_body', 'request body is missing: send a JSON object');

describe('requests without a body', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp();
    port = (t.app.getHttpServer().address() as { port: number }).port;
  });
  afterAll(() => t?.close());

  /** Sends each request on one kept-alive connection, one after the other, and returns their answers. */
  async function onOneConnection(...requests: string[]): Promise<RawResponse[]> {
    const client = await open(port);
    try {
      for (const [index, raw] of requests.entries()) {
        client.socket.write(raw);
        await waitFor(
          () => parseResponses(client.received()).length > index,
          `answer ${index + 1} of ${requests.length}`,
        );
      }
      expect(client.socket.destroyed).toBe(false);
      return parseResponses(client.received());
    } finally {
      client.socket.destroy();
    }
  }

  const request = (method: string, path: string, headers: string, body = '') =>
    `${method} ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_API_KEY}\r\n${headers}\r\n${body}`;
  const SHAPES = [
    ['Content-Type and no length', 'Content-Type: application/json\r\n'],
    ['Content-Type and Content-Length: 0', 'Content-Type: application/json\r\nContent-Length: 0\r\n'],
    ['a Content-Type that is not JSON and no length', 'Content-Type: text/plain\r\n'],
  ] as const;

  async function placedOrder(): Promise<number> {
    const pet = await t.http().post('/v1/pets').set(AUTH).send({ name: 'Rex', categoryId: 1, status: 'available' });
    const order = await t.http().post('/v1/store/orders').set(AUTH).send({ petId: pet.body.id });
    expect(order.status).toBe(201);
    return order.body.id as number;
  }
  const orderStatus = async (id: number) => (await t.http().get(`/v1/store/orders/${id}`).set(AUTH)).body.status;

  it.each(SHAPES)('runs the order steps that take no body, sent with %s', async (_shape, headers) => {
    const id = await placedOrder();
    const cancelled = await placedOrder();
    const answers = await onOneConnection(
      request('POST', `/v1/store/orders/${id}/approve`, headers),
      request('POST', `/v1/store/orders/${id}/deliver`, headers),
      request('DELETE', `/v1/store/orders/${cancelled}`, headers),
    );
    expect(answers.map((answer) => [answer.status, answer.headers['content-type']])).toEqual(
      Array(3).fill([200, JSON_CONTENT_TYPE]),
    );
    const order = { petId: expect.any(Number), quantity: 1 };
    expect(answers.map((answer) => JSON.parse(answer.body))).toEqual([
      { ...order, id, status: 'approved', complete: false },
      { ...order, id, status: 'delivered', complete: true },
      { ...order, id: cancelled, status: 'cancelled', complete: false },
    ]);
    expect([await orderStatus(id), await orderStatus(cancelled)]).toEqual(['delivered', 'cancelled']);
  });

  it.each(SHAPES.slice(0, 2))('answers a create sent with %s 400: its body is missing', async (_shape, headers) => {
    const before = await t.http().get('/v1/pets?limit=100').set(AUTH);
    const answers = await onOneConnection(
      request('POST', '/v1/pets', headers),
      request('POST', '/v1/pets', headers, ''),
      request('POST', '/v1/store/orders', headers),
    );
    expect(answers.map((answer) => [answer.status, answer.headers['content-type'], JSON.parse(answer.body)])).toEqual(
      Array(3).fill([400, JSON_CONTENT_TYPE, MISSING]),
    );
    expect((await t.http().get('/v1/pets?limit=100').set(AUTH)).body).toEqual(before.body);
  });

  it('answers a create with an empty chunked body 400: its body is missing', async () => {
    const [answer] = await onOneConnection(
      request('POST', '/v1/pets', 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n', '0\r\n\r\n'),
    );
    expect([answer.status, JSON.parse(answer.body)]).toEqual([400, MISSING]);
  });

  it('answers a create without any body or Content-Type 400 the same way', async () => {
    const response = await t.http().post('/v1/pets').set(AUTH);
    expect([response.status, response.body]).toEqual([400, MISSING]);
  });

  it.each([
    ['an object with a property', '{"x":1}', "this operation takes no request body: unknown property 'x'"],
    ['an array', '[]', 'this operation takes no request body'],
    ['null', 'null', 'this operation takes no request body'],
  ])('refuses %s sent to an operation that takes no body, and does not run it', async (_what, raw, message) => {
    const id = await placedOrder();
    for (const path of [`/v1/store/orders/${id}/approve`, `/v1/store/orders/${id}/deliver`]) {
      const refused = await t.http().post(path).set(AUTH).set('content-type', 'application/json').send(raw);
      expect([refused.status, refused.body]).toEqual([400, errorBody(400, 'invalid_body', message)]);
    }
    const cancel = await t
      .http()
      .delete(`/v1/store/orders/${id}`)
      .set(AUTH)
      .set('content-type', 'application/json')
      .send(raw);
    expect([cancel.status, cancel.body]).toEqual([400, errorBody(400, 'invalid_body', message)]);
    expect(await orderStatus(id)).toBe('placed');
  });

  it('takes {} where an operation takes no body, as before', async () => {
    const id = await placedOrder();
    const approved = await t.http().post(`/v1/store/orders/${id}/approve`).set(AUTH).send({});
    expect([approved.status, approved.body.status]).toEqual([200, 'approved']);
  });
});
