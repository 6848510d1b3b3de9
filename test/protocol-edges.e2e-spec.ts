import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, open, parseResponses, type RawResponse } from './support/raw-client';
import { scaled, waitFor } from './support/wait-for';
import {
  AUTH,
  JSON_CONTENT_TYPE,
  TEST_API_KEY,
  errorBody,
  servedMethods,
  startTestApp,
  type TestApp,
} from './support/test-app';

/*
 * Answers given below the application (Node's HTTP parser, unknown
 * expectations, the router) and at the edges of the protocol (encodings,
 * Expect: 100-continue, unknown methods): every one in the Error shape, with a
 * request id and the security headers, logged and counted like the others.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KEY = `Authorization: Bearer ${TEST_API_KEY}\r\n`;
const MALFORMED = errorBody(
  400,
  'bad_request',
  'the request is not valid HTTP/1.1 (for example Content-Length with Transfer-Encoding, or a bad header)',
);

function expectErrorAnswer(response: RawResponse | undefined, body: ReturnType<typeof errorBody>) {
  expect(response?.status).toBe(body.status);
  expect(response?.headers).toMatchObject({
    'content-type': JSON_CONTENT_TYPE,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-request-id': expect.stringMatching(UUID),
  });
  expect(JSON.parse(response!.body)).toEqual(body);
}

describe('protocol edges', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp({
      env: { HEADERS_TIMEOUT_MS: String(scaled(500)), REQUEST_TIMEOUT_MS: String(scaled(1_000)) },
    });
    port = (t.app.getHttpServer().address() as { port: number }).port;
  });
  afterAll(() => t?.close());

  describe("Node's own refusals, in the Error shape", () => {
    it.each([
      ['Content-Length with Transfer-Encoding', 'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
      ['two Content-Lengths', 'Content-Length: 5\r\nContent-Length: 6\r\n\r\n{"a":1}'],
      ['an obs-folded header', 'X-Folded: a\r\n  b\r\nContent-Length: 2\r\n\r\n{}'],
      ['a bad chunk size', 'Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'],
      ['a raw control byte in a header', 'X-Raw: a\u0001b\r\nContent-Length: 2\r\n\r\n{}'],
    ])('answers %s 400 bad_request and closes the connection', async (_shape, rest) => {
      const [response, ...others] = await exchange(port, `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${KEY}${rest}`);
      expectErrorAnswer(response, MALFORMED);
      expect(response.headers.connection).toBe('close');
      expect(others).toEqual([]);
    });

    it.each([
      ['headers', `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`],
      ['a URL', `GET /v1/pets?${'a'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ])('answers %s over 16 KiB 431 headers_too_large', async (_what, raw) => {
      const [response] = await exchange(port, raw);
      expectErrorAnswer(response, errorBody(431, 'headers_too_large', 'the request line and headers exceed 16 KiB'));
    });

    it('answers a client too slow to send its headers 408 request_timeout', async () => {
      const [response] = await exchange(port, `GET /v1/pets HTTP/1.1\r\nHost: x\r\n`);
      expectErrorAnswer(response, errorBody(408, 'request_timeout', 'the request was not received in time'));
    });

    it('answers an unknown expectation 417 expectation_failed', async () => {
      const [response] = await exchange(port, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n${KEY}\r\n`, 1);
      expectErrorAnswer(
        response,
        errorBody(417, 'expectation_failed', 'the only expectation supported is Expect: 100-continue'),
      );
    });

    it('answers HTTP/1.1 without Host 400, and serves HTTP/1.0 without it', async () => {
      const [response] = await exchange(port, `GET /v1/pets HTTP/1.1\r\n${KEY}\r\n`, 1);
      expect(response.status).toBe(400);
      expect(response.headers['x-request-id']).toMatch(UUID);
      expect(JSON.parse(response.body)).toEqual(
        errorBody(400, 'bad_request', 'an HTTP/1.1 request must carry a Host header'),
      );
      const old = await exchange(port, `GET /v1/pets HTTP/1.0\r\n${KEY}\r\n`);
      expect(old[0].status).toBe(200);
    });

    it('answers CONNECT 405 in the Error shape, with Allow, and closes the connection', async () => {
      const [response, ...others] = await exchange(
        port,
        `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n`,
      );
      expect(others).toEqual([]);
      const served = await servedMethods(t);
      expect(response.headers).toMatchObject({ allow: served, connection: 'close' });
      expectErrorAnswer(
        response,
        errorBody(405, 'method_not_allowed', `CONNECT is not supported: this service is not a proxy; use ${served}`),
      );
    });

    it('closes the connection after answering a request whose body it did not read: no second answer', async () => {
      const client = await open(port);
      // Unauthenticated, chunked, and never finished.
      client.socket.write(
        'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"nam\r\n',
      );
      await client.closed;
      const responses = parseResponses(client.received());
      expect(responses.map((response) => response.status)).toEqual([401]);
      expect(responses[0].headers.connection).toBe('close');
      expect(JSON.parse(responses[0].body)).toEqual(
        errorBody(401, 'missing_api_key', 'an API key is required: send Authorization: Bearer <key>'),
      );
    });

    it('keeps the connection open after an answer to a request it read whole', async () => {
      const client = await open(port);
      client.socket.write(`GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\n${KEY}\r\n`);
      await waitFor(() => parseResponses(client.received()).length === 1, 'the answer');
      const [response] = parseResponses(client.received());
      expect(response.status).toBe(200);
      expect(response.headers.connection).toBe('keep-alive');
      expect(client.socket.destroyed).toBe(false);
      client.socket.destroy();
    });

    it('keeps the connection open after refusing a request that had no body: the next one follows on it', async () => {
      const requests = [
        'GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n',
        `DELETE /v1/pets HTTP/1.1\r\nHost: x\r\n${KEY}\r\n`,
        'GET /v1/pets/ HTTP/1.1\r\nHost: x\r\n\r\n',
        `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${KEY}Content-Type: text/plain\r\nContent-Length: 0\r\n\r\n`,
        `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\n${KEY}\r\n`,
      ];
      const client = await open(port);
      for (const [index, request] of requests.entries()) {
        client.socket.write(request);
        await waitFor(() => parseResponses(client.received()).length === index + 1, `answer ${index + 1}`);
      }
      const responses = parseResponses(client.received());
      expect(responses.map((response) => [response.status, response.headers.connection])).toEqual([
        [404, 'keep-alive'],
        [405, 'keep-alive'],
        [404, 'keep-alive'],
        [400, 'keep-alive'],
        [200, 'keep-alive'],
      ]);
      expect(client.socket.destroyed).toBe(false);
      client.socket.destroy();
    });

    it('counts every one of these answers in the metrics, once each', async () => {
      const metrics = (await t.http().get('/metrics')).text;
      // The answers of the tests above: five malformed requests, two oversized, one slow, one expectation, one CONNECT.
      for (const [method, status, count] of [
        ['UNKNOWN', 400, 5],
        ['UNKNOWN', 431, 2],
        ['UNKNOWN', 408, 1],
        ['GET', 417, 1],
        ['CONNECT', 405, 1],
      ]) {
        expect(metrics).toContain(
          `http_requests_total{route="unmatched",method="${method}",status="${status}"} ${count}\n`,
        );
      }
    });
  });

  describe('methods no route serves', () => {
    it.each([
      ['without a body', 'QUERY /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n'],
      ['with a body and no content type', 'QUERY /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}'],
      [
        'with a body of another media type',
        'QUERY /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: 2\r\n\r\n{}',
      ],
    ])('answers QUERY %s 405 with Allow, like every unknown method', async (_how, raw) => {
      const [response] = await exchange(port, raw, 1);
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe('GET, HEAD, POST');
      expect(JSON.parse(response.body)).toEqual(
        errorBody(405, 'method_not_allowed', 'QUERY is not supported on /v1/pets; use GET, HEAD, POST'),
      );
    });
  });

  describe('Expect: 100-continue', () => {
    const body = JSON.stringify({ name: 'Rex', categoryId: 1 });
    const head = (headers: string, length = body.length) =>
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n${headers}\r\n`;

    // The body is never sent: an answer that comes, and alone (no 100 Continue before it), was given without it.
    it('is not invited without a valid key: the 401 comes first and alone', async () => {
      const responses = await exchange(port, head(''));
      expect(
        responses.map(({ status, headers, body }) => ({
          status,
          auth: headers['www-authenticate'],
          body: JSON.parse(body),
        })),
      ).toEqual([
        {
          status: 401,
          auth: 'Bearer realm="petstore"',
          body: errorBody(401, 'missing_api_key', 'an API key is required: send Authorization: Bearer <key>'),
        },
      ]);
    });

    it('is not invited over the size limit: 413 without reading the body', async () => {
      const responses = await exchange(port, head(KEY, 20_000));
      expect(responses.map(({ status, body }) => ({ status, body: JSON.parse(body) }))).toEqual([
        { status: 413, body: errorBody(413, 'payload_too_large', 'request body must not exceed 16384 bytes') },
      ]);
    });

    it('is invited once the key and the size are accepted, and then the pet is created', async () => {
      const client = await open(port);
      client.socket.write(head(KEY));
      await waitFor(() => client.received().length > 0, 'the invitation');
      expect(client.received()).toBe('HTTP/1.1 100 Continue\r\n\r\n');
      client.socket.write(body);
      await waitFor(() => parseResponses(client.received()).length === 2, 'the answer to the body');
      client.socket.destroy();
      const statuses = parseResponses(client.received()).map((response) => response.status);
      expect(statuses).toEqual([100, 201]);
    });
  });

  describe('request bodies: JSON in UTF-8, uncompressed', () => {
    const pet = JSON.stringify({ name: 'Rex', categoryId: 1 });
    const post = (headers: Record<string, string>, payload: string | Buffer = pet) =>
      t.http().post('/v1/pets').set(AUTH).set(headers).send(payload);

    it.each([
      [
        'a gzip body',
        { 'content-encoding': 'gzip' },
        gzipSync(pet),
        'Content-Encoding gzip is not supported: send the body uncompressed',
      ],
      [
        'a plain body labelled br',
        { 'content-encoding': 'br' },
        pet,
        'Content-Encoding br is not supported: send the body uncompressed',
      ],
      [
        'latin-1',
        { 'content-type': 'application/json; charset=latin1' },
        pet,
        'the body must be JSON in UTF-8 (got charset=latin1)',
      ],
    ])('answers %s 415 unsupported_media_type', async (_what, headers, payload, message) => {
      const response = await post({ 'content-type': 'application/json', ...headers }, payload);
      expect(response.status).toBe(415);
      expect(response.body).toEqual(errorBody(415, 'unsupported_media_type', message));
    });

    it.each([
      ['FF FE C3', Buffer.from([0xff, 0xfe, 0xc3])],
      ['an overlong slash (C0 AF)', Buffer.from([0xc0, 0xaf])],
      ['a lone continuation byte', Buffer.from([0x80])],
    ])('answers a name holding %s, which is not UTF-8, 400 malformed_json and stores nothing', async (_what, bytes) => {
      const payload = Buffer.concat([Buffer.from('{"name":"Rex'), bytes, Buffer.from('","categoryId":1}')]);
      // fetch sends the bytes as they are (supertest would serialise a Buffer as JSON).
      const response = await fetch(`http://127.0.0.1:${port}/v1/pets`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: payload,
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe(JSON_CONTENT_TYPE);
      expect(await response.json()).toEqual(errorBody(400, 'malformed_json', 'request body is not valid UTF-8'));
      const listed = await t.http().get('/v1/pets?limit=100').set(AUTH);
      expect(listed.text).not.toContain('\\ufffd');
      expect(listed.text).not.toContain('\ufffd');
    });

    const nested = (depth: number, inner: string) => '['.repeat(depth) + inner + ']'.repeat(depth);
    it.each([
      ['name', `{"name":${nested(1300, '"Rex"')},"categoryId":1}`],
      ['categoryId', `{"name":"Rex","categoryId":${nested(1300, '1')}}`],
      ['status', `{"name":"Rex","categoryId":1,"status":${nested(1300, '"sold"')}}`],
      ['an unknown property', `{"name":"Rex","categoryId":1,"x":${nested(3100, '{}')}}`],
    ])('answers arrays nested 1,300 deep or more in %s 400 invalid_body naming the bound', async (_what, payload) => {
      for (const key of [undefined, 'deep-1']) {
        const request = t.http().post('/v1/pets').set(AUTH).set('content-type', 'application/json');
        if (key) request.set('idempotency-key', `${key}-${_what}`);
        const response = await request.send(payload);
        expect(response.status).toBe(400);
        expect(response.body).toEqual(
          errorBody(400, 'invalid_body', 'request body nests arrays and objects deeper than 32 levels'),
        );
      }
    });

    it('accepts 32 levels, brackets inside strings not counted', async () => {
      const response = await post(
        { 'content-type': 'application/json' },
        `{"name":"[[[{{{ Rex \\" [[[","categoryId":1,"x":${nested(31, '1')}}`,
      );
      expect(response.status).toBe(400);
      expect(response.body).toEqual(errorBody(400, 'invalid_body', "unknown property 'x'"));
    });

    it.each([
      ['identity', { 'content-encoding': 'identity' }],
      ['charset=UTF-8', { 'content-type': 'application/json; charset=UTF-8' }],
    ])('accepts %s', async (_what, headers) => {
      const response = await post({ 'content-type': 'application/json', ...headers });
      expect(response.status).toBe(201);
    });
  });

  describe('fields that say two things at once: 400, and nothing stored', () => {
    const body = '{"name":"Twice","categoryId":1}';
    const length = `Content-Length: ${body.length}\r\n`;
    const json = 'Content-Type: application/json\r\n';
    const OTHER_KEY = `Authorization: Bearer ${'x'.repeat(32)}\r\n`;

    it.each([
      ['two Host headers', `Host: a\r\nHost: b\r\n${KEY}${json}${length}`, 'the Host header may be given only once'],
      [
        'a Host that is no host',
        `Host: a b/c\r\n${KEY}${json}${length}`,
        'the Host header must be a host name or address, and a port',
      ],
      [
        'two Authorization headers, the first valid',
        `Host: x\r\n${KEY}${OTHER_KEY}${json}${length}`,
        'the Authorization header may be given only once',
      ],
      [
        'two Authorization headers, the second valid',
        `Host: x\r\n${OTHER_KEY}${KEY}${json}${length}`,
        'the Authorization header may be given only once',
      ],
      [
        'two Content-Type headers',
        `Host: x\r\n${KEY}${json}Content-Type: text/plain\r\n${length}`,
        'the Content-Type header may be given only once',
      ],
      [
        'two Idempotency-Key headers',
        `Host: x\r\n${KEY}Idempotency-Key: a\r\nIdempotency-Key: b\r\n${json}${length}`,
        'the Idempotency-Key header may be given only once',
      ],
      [
        'a Content-Type with two charsets',
        `Host: x\r\n${KEY}Content-Type: application/json; charset=utf-8; Charset=latin1\r\n${length}`,
        'Content-Type gives its charset parameter twice',
      ],
    ])('answers %s 400 bad_request', async (_what, headers, message) => {
      const [response] = await exchange(port, `POST /v1/pets HTTP/1.1\r\n${headers}\r\n${body}`, 1);
      expectErrorAnswer(response, errorBody(400, 'bad_request', message));
      const listed = await t.http().get('/v1/pets?limit=100').set(AUTH);
      expect(listed.text).not.toContain('Twice');
    });

    // Node refuses other shapes itself (chunked twice, chunked not last, identity); these it reads as plain chunked.
    it.each(['gzip, chunked', 'deflate, chunked', 'x-unknown, chunked'])(
      'answers Transfer-Encoding: %s 400 bad_request: chunked is the one coding taken, and the body is not read',
      async (coding) => {
        const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
        const headers = `Host: x\r\n${KEY}${json}Transfer-Encoding: ${coding}\r\n`;
        const [response] = await exchange(port, `POST /v1/pets HTTP/1.1\r\n${headers}\r\n${chunked}`, 1);
        expectErrorAnswer(
          response,
          errorBody(400, 'bad_request', 'Transfer-Encoding may only be chunked: no other coding is taken'),
        );
        const listed = await t.http().get('/v1/pets?limit=100').set(AUTH);
        expect(listed.text).not.toContain('Twice');
      },
    );

    it.each([
      ['at the top', '{"name":"Twice","name":"Once","categoryId":1}'],
      ['in an unknown property', '{"name":"Twice","categoryId":1,"x":{"a":1,"a":2}}'],
      ['with an escape', '{"name":"Twice","n\\u0061me":"Once","categoryId":1}'],
    ])('answers a body with the same key twice %s 400 malformed_json', async (_what, payload) => {
      const response = await t.http().post('/v1/pets').set(AUTH).set('content-type', 'application/json').send(payload);
      expect([response.status, response.headers['content-type'], response.body]).toEqual([
        400,
        JSON_CONTENT_TYPE,
        errorBody(400, 'malformed_json', 'request body gives the same key twice in one object'),
      ]);
      const listed = await t.http().get('/v1/pets?limit=100').set(AUTH);
      expect(listed.text).not.toContain('Twice');
    });

    it.each([
      ['a Host with a port', 'Host: localhost:3000'],
      ['an IPv6 Host', 'Host: [::1]:3000'],
      ['two Accept headers (a list)', 'Host: x\r\nAccept: application/json\r\nAccept: */*'],
    ])('serves %s', async (_what, headers) => {
      const [response] = await exchange(port, `GET /v1/pets?limit=1 HTTP/1.1\r\n${headers}\r\n${KEY}\r\n`, 1);
      expect(response.status).toBe(200);
    });
  });

  describe('names', () => {
    it.each(['Rex\u0085', 'Rex\u009f', 'Rex\u007f'])('refuses the control character in %j', async (name) => {
      const response = await t.http().post('/v1/pets').set(AUTH).send({ name, categoryId: 1 });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(errorBody(400, 'invalid_body', 'name must not contain control characters'));
    });
  });

  describe('/docs', () => {
    it.each([
      '/docs/nope.js',
      '/docs/%2e%2e/package.json',
      '/docs/package.json',
      '/docs/README.md',
      '/docs/swagger-ui-bundle.js.map',
    ])('answers %s 404 route_not_found', async (path) => {
      const response = await t.http().get(path);
      expect(response.status).toBe(404);
      expect(response.body).toEqual(errorBody(404, 'route_not_found', `no route for GET ${path}`));
    });

    it('serves what the page loads', async () => {
      for (const asset of [
        'swagger-ui.css',
        'swagger-ui-bundle.js',
        'swagger-ui-standalone-preset.js',
        'swagger-ui-init.js',
        'favicon-32x32.png',
      ]) {
        expect((await t.http().get(`/docs/${asset}`)).status).toBe(200);
      }
    });

    it('names /v1 of the address the client used as the server, so "Try it out" works from localhost too', async () => {
      const document = (await t.http().get('/v1/openapi.json')).body;
      expect(document.servers).toEqual([{ url: '/v1', description: 'This instance' }]);
    });

    it('answers /docs/ as every path with a trailing slash, 404; the page is /docs', async () => {
      const response = await t.http().get('/docs/');
      expect(response.status).toBe(404);
      expect(response.body).toEqual(errorBody(404, 'route_not_found', 'no route for GET /docs/'));
      const page = await t.http().get('/docs');
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toBe('text/html');
    });
  });
});
