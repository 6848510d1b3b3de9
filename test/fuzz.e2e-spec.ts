import { Agent, request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_API_KEY, startTestApp, type TestApp } from './support/test-app';

/**
 * Property-based tests over the three operations, through HTTP. The oracle:
 * never a 5xx; every error in the Error shape with `status` equal to the HTTP
 * status; only statuses the OpenAPI document declares for the operation; 401
 * for bad credentials, 400 for invalid input, 2xx for valid input. fast-check
 * prints the seed and the shrunk counterexample of a failure; replay it with
 * FUZZ_SEED=<seed>.
 */
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const STATUSES = ['available', 'pending', 'sold'];
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const runs = (numRuns: number) => ({ numRuns, seed: SEED, endOnFailure: true });

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 });
let t: TestApp;
let baseUrl: string;
let declared: Record<string, string[]>;

function send(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A path, not a URL: new URL() would resolve dot segments before sending.
    const { hostname, port } = new URL(baseUrl);
    const req = request({ hostname, port, path, method, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const auth = { authorization: `Bearer ${TEST_API_KEY}` };

/** The oracle every answer must satisfy, whatever was sent. */
function checkAnswer(answer: Answer, operation: string | undefined): void {
  expect(answer.status, answer.text).toBeLessThan(500);
  if (operation)
    expect(declared[operation], `${operation} does not declare ${answer.status}`).toContain(String(answer.status));
  if (answer.status >= 400) {
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(answer.text);
    expect(Object.keys(body).sort()).toEqual(['code', 'message', 'status']);
    expect(body.status).toBe(answer.status);
    expect(body.code).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(typeof body.message === 'string' && body.message.length > 0).toBe(true);
  }
}

/** What Node accepts in a header value. */
const headerValue = fc.string({
  unit: fc
    .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff }))
    .map((code) => String.fromCharCode(code)),
  maxLength: 80,
});

/**
 * The int64 a JSON number's text means, as the service reads it (exactly: the
 * digits of an integer, never a double's rounding of them; any other form, such
 * as `1e2` or `1.0`, as JSON.parse reads it), or undefined when it is none.
 */
function int64Of(raw: string): bigint | undefined {
  const value = /^-?\d+$/.test(raw)
    ? BigInt(raw)
    : Number.isSafeInteger(JSON.parse(raw))
      ? BigInt(JSON.parse(raw))
      : NaN;
  return typeof value === 'bigint' && value >= -(2n ** 63n) && value < 2n ** 63n ? value : undefined;
}

const isInt64Text = (raw: string | undefined) => raw !== undefined && int64Of(raw) !== undefined;

/** The text of the top-level `categoryId` of a JSON object, as written (Node 22's reviver `context.source`). */
function categoryIdTextOf(text: string): string | undefined {
  const sources = new Map<object, string>();
  const root: unknown = JSON.parse(text, function (this: object, key, value: unknown, context?: { source?: string }) {
    if (key === 'categoryId' && typeof value === 'number' && context?.source) sources.set(this, context.source);
    return value;
  });
  return typeof root === 'object' && root !== null ? sources.get(root) : undefined;
}

/** The service's own name rule, restated for the oracle. */
function validName(name: unknown): boolean {
  return (
    typeof name === 'string' &&
    [...name].length >= 1 &&
    [...name].length <= 255 &&
    name.isWellFormed() &&
    // eslint-disable-next-line no-control-regex -- the oracle of the name rule: Unicode category Cc
    !/[\u0000-\u001f\u007f-\u009f]/.test(name) &&
    !/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(name) &&
    /[\p{L}\p{N}\p{P}\p{S}]/u.test(name)
  );
}

beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
  baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
  const document = JSON.parse((await send('GET', '/v1/openapi.json')).text);
  declared = {
    listPets: Object.keys(document.paths['/pets'].get.responses),
    createPet: Object.keys(document.paths['/pets'].post.responses),
    getPet: Object.keys(document.paths['/pets/{petId}'].get.responses),
  };
  for (let i = 0; i < 30; i++) {
    await send(
      'POST',
      '/v1/pets',
      { ...auth, 'content-type': 'application/json' },
      JSON.stringify({ name: `seed-${i}`, categoryId: i, status: STATUSES[i % 3] }),
    );
  }
});
afterAll(async () => {
  agent.destroy();
  await t?.close();
});

describe('fuzzing', () => {
  it('answers any Authorization value with 401 unless it is exactly a valid bearer key', async () => {
    const authorization = fc.oneof(
      headerValue,
      headerValue.map((token) => `Bearer ${token}`),
      fc
        .constantFrom('bearer', 'BEARER', 'Bearer ', 'Basic', 'Digest', 'bearer\t')
        .chain((scheme) =>
          fc
            .constantFrom(TEST_API_KEY, `${TEST_API_KEY}x`, TEST_API_KEY.slice(1), TEST_API_KEY.toUpperCase(), '')
            .map((key) => `${scheme} ${key}`),
        ),
      fc
        .tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 3 }))
        .map(([before, after]) => `bearer${' '.repeat(before)}${TEST_API_KEY}${' '.repeat(after)}`),
    );
    const operation = fc.constantFrom(
      { name: 'listPets', method: 'GET', path: '/v1/pets?limit=0' },
      { name: 'createPet', method: 'POST', path: '/v1/pets' },
      { name: 'getPet', method: 'GET', path: '/v1/pets/abc' },
    );
    await fc.assert(
      fc.asyncProperty(authorization, operation, async (value, op) => {
        const body = op.method === 'POST' ? '{"name": broken' : undefined;
        const answer = await send(
          op.method,
          op.path,
          { authorization: value, ...(body ? { 'content-type': 'application/json' } : {}) },
          body,
        );
        checkAnswer(answer, op.name);
        const token = /^bearer +([^ ]+) *$/i.exec(value.trim())?.[1];
        const valid = token === TEST_API_KEY;
        // With a valid key the (deliberately bad) request reaches validation: 400.
        expect(answer.status).toBe(valid ? 400 : 401);
      }),
      runs(600),
    );
  });

  it('answers any query string of listPets with 200 when valid and 400 naming the problem otherwise', async () => {
    const key = fc.oneof(
      fc.constantFrom('limit', 'status', 'Limit', 'STATUS', 'offset', '__proto__', 'constructor', 'limit[]'),
      fc.string({ minLength: 1, maxLength: 6 }),
    );
    const value = fc.oneof(
      fc.integer({ min: 1, max: 100 }).map(String),
      fc.integer().map(String),
      fc.constantFrom(
        ...STATUSES,
        'SOLD',
        'Sold',
        'abc',
        '1.5',
        '1e1',
        '0x10',
        '+5',
        '-1',
        '',
        '٣',
        '１',
        '99999999999999999999',
        ' 5',
        '5 ',
        '007',
        '0',
      ),
      fc.string({ maxLength: 8 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(key, value), { maxLength: 4 }), async (pairs) => {
        const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        const answer = await send('GET', `/v1/pets${query ? `?${query}` : ''}`, auth);
        checkAnswer(answer, 'listPets');
        const keys = pairs.map(([k]) => k);
        const get = (name: string) => pairs.filter(([k]) => k === name).map(([, v]) => v);
        const limits = get('limit');
        const statuses = get('status');
        const valid =
          keys.every((k) => k === 'limit' || k === 'status') &&
          limits.length <= 1 &&
          statuses.length <= 1 &&
          (limits.length === 0 || (/^\d+$/.test(limits[0]) && Number(limits[0]) >= 1 && Number(limits[0]) <= 100)) &&
          (statuses.length === 0 || STATUSES.includes(statuses[0]));
        if (!valid) {
          expect(answer.status).toBe(400);
          expect(JSON.parse(answer.text).code).toBe('invalid_parameter');
          return;
        }
        expect(answer.status).toBe(200);
        const pets = JSON.parse(answer.text) as Array<{ id: number; status?: string }>;
        expect(pets.length).toBeLessThanOrEqual(limits.length ? Number(limits[0]) : 20);
        if (statuses.length) expect(pets.every((pet) => pet.status === statuses[0])).toBe(true);
        expect(pets.map((pet) => pet.id)).toEqual([...pets.map((pet) => pet.id)].sort((a, b) => a - b));
      }),
      runs(700),
    );
  });

  it('answers any petId with 200, 404 or 400 as the contract says (int64)', async () => {
    const id = fc.oneof(
      fc.integer({ min: -5, max: 40 }).map(String),
      fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
      fc.constantFrom('0x10', '1e3', '1.0', '+1', '-0', '٣', '１', '1 ', ' 1', '..', '.', 'NaN', 'Infinity', '007'),
      fc.string({ minLength: 1, maxLength: 10 }),
    );
    await fc.assert(
      fc.asyncProperty(id, async (petId) => {
        const answer = await send('GET', `/v1/pets/${encodeURIComponent(petId)}`, auth);
        checkAnswer(answer, 'getPet');
        expect(answer.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
        // An id is an int64 in decimal digits; anything else is a 400.
        const int64 = /^-?\d+$/.test(petId) && BigInt(petId) >= -(2n ** 63n) && BigInt(petId) < 2n ** 63n;
        if (!int64) {
          expect(answer.status).toBe(400);
          return;
        }
        const n = Number(petId);
        const exists = Number.isSafeInteger(n) && n >= 1 && n <= 30;
        expect(answer.status).toBe(exists ? 200 : 404);
        if (exists) expect(JSON.parse(answer.text).id).toBe(n);
      }),
      runs(500),
    );
  });

  it('answers hostile raw paths with a 4xx in the Error shape', async () => {
    for (const path of [
      '/v1/pets/%',
      '/v1/pets/%ZZ',
      '/v1/pets/%00',
      '/v1/pets/%E0%A4%A',
      `/v1/pets/${'1'.repeat(101)}`,
      '/v1/pets/1/../2',
      '/v1//pets',
      '/%2e%2e/v1/pets',
    ]) {
      const answer = await send('GET', path, auth);
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      checkAnswer(answer, undefined);
    }
  });

  it('answers any JSON body of createPet with 201 when valid, 400 otherwise, and stores valid pets exactly', async () => {
    const name = fc.oneof(
      fc.string({ minLength: 1, maxLength: 20 }),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 5 }),
      fc.string({ unit: 'binary', maxLength: 5 }),
      fc.constantFrom(
        '',
        'x'.repeat(255),
        'x'.repeat(256),
        'a\u0000b',
        '\ud800',
        '\u2764\ufe0f',
        ' ',
        '\u200b',
        'a\u202e',
      ),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 2 }),
    );
    const categoryId = fc.oneof(
      fc.maxSafeInteger(),
      fc.integer(),
      fc.double(),
      fc.constantFrom(MAX_SAFE, -MAX_SAFE, MAX_SAFE + 1, -MAX_SAFE - 1, 2 ** 63, 0, -0),
      fc.integer().map(String),
      fc.boolean(),
      fc.constant(null),
    );
    const status = fc.oneof(
      fc.constantFrom(...STATUSES),
      fc.constantFrom('SOLD', '', 'lost'),
      fc.constant(null),
      fc.integer(),
    );
    const extra = fc.dictionary(
      fc.oneof(
        fc.string({ minLength: 1, maxLength: 5 }),
        fc.constantFrom('__proto__', 'constructor', 'id', 'prototype'),
      ),
      fc.jsonValue({ maxDepth: 3 }),
      { maxKeys: 2 },
    );
    const pet = fc.tuple(
      fc.record({ name, categoryId, status }, { requiredKeys: [] }),
      fc.option(extra, { nil: undefined }),
    );
    await fc.assert(
      fc.asyncProperty(pet, async ([fields, more]) => {
        const body: Record<string, unknown> = { ...fields };
        for (const [k, v] of Object.entries(more ?? {})) Object.defineProperty(body, k, { value: v, enumerable: true });
        const text = JSON.stringify(body);
        const answer = await send('POST', '/v1/pets', { ...auth, 'content-type': 'application/json' }, text);
        checkAnswer(answer, 'createPet');
        const sent = JSON.parse(text) as Record<string, unknown>;
        const valid =
          Object.keys(JSON.parse(text)).every((k) => ['name', 'categoryId', 'status'].includes(k)) &&
          // A `__proto__` key is refused; a name that is the text "__proto__" is a name like any other.
          !/"__proto__"\s*:/.test(text) &&
          validName(sent.name) &&
          isInt64Text(categoryIdTextOf(text)) &&
          (sent.status === undefined || STATUSES.includes(sent.status as string));
        expect(answer.status, `${text} -> ${answer.text}`).toBe(valid ? 201 : 400);
        if (!valid) return;
        const created = JSON.parse(answer.text);
        expect(created).toEqual({ id: expect.any(Number), ...sent });
        expect(categoryIdTextOf(answer.text)).toBe(String(int64Of(categoryIdTextOf(text)!)));
        expect(answer.headers.location).toBe(`/v1/pets/${created.id}`);
        const fetched = await send('GET', `/v1/pets/${created.id}`, auth);
        expect(JSON.parse(fetched.text)).toEqual(created);
      }),
      runs(1000),
    );
  });

  it('reads JSON numbers exactly: 1e2 and 1.0 are integers, digits past 2^53 are kept, 1E400 and 2^63 are refused', async () => {
    const number = fc.constantFrom(
      '1e2',
      '1.0',
      '100',
      '-0',
      '1E400',
      '9007199254740993',
      '9007199254740992',
      '9007199254740991',
      '9223372036854775807',
      '-9223372036854775808',
      '9223372036854775808',
      '-9223372036854775809',
      '9223372036854775807.0',
      '0.5e1',
      '5e-1',
      '-1e0',
      '1e15',
    );
    await fc.assert(
      fc.asyncProperty(number, async (raw) => {
        const answer = await send(
          'POST',
          '/v1/pets',
          { ...auth, 'content-type': 'application/json' },
          `{"name":"n","categoryId":${raw}}`,
        );
        checkAnswer(answer, 'createPet');
        const value = int64Of(raw);
        expect(answer.status).toBe(value === undefined ? 400 : 201);
        if (answer.status === 201) expect(categoryIdTextOf(answer.text)).toBe(String(value));
      }),
      runs(60),
    );
  });

  it('answers any raw body with a 4xx unless it happens to be a valid pet', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.json({ maxDepth: 3 }),
      fc.integer({ min: 1, max: 5000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
      fc
        .integer({ min: 1, max: 3000 })
        .map((depth) => `{"name":"deep","categoryId":1,"x":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`),
      fc.constantFrom(
        '{"name":"x","categoryId":1,"__proto__":{"polluted":true}}',
        '{"name":"x","categoryId":1,"constructor":{"prototype":{"polluted":true}}}',
        '\u0000',
        '{',
        'null',
        'true',
        '[]',
        '""',
      ),
    );
    const contentType = fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/xml',
      'application/jsonx',
      'multipart/form-data; boundary=x',
      'APPLICATION/JSON',
    );
    await fc.assert(
      fc.asyncProperty(text, contentType, async (body, type) => {
        const answer = await send('POST', '/v1/pets', { ...auth, 'content-type': type }, body);
        checkAnswer(answer, 'createPet');
        // No content has no media type: a missing body whatever the header says. Otherwise the media type is checked
        // before the body is read, the size while it is.
        if (body === '') {
          expect(answer.status).toBe(400);
          return;
        }
        if (!/^application\/json(;|$)/i.test(type)) {
          expect(answer.status).toBe(415);
          return;
        }
        if (Buffer.byteLength(body) > 16 * 1024) {
          expect(answer.status).toBe(413);
          return;
        }
        let parsed: unknown;
        try {
          parsed = JSON.parse(body);
        } catch {
          expect(answer.status).toBe(400);
          return;
        }
        const p = parsed as Record<string, unknown>;
        const valid =
          typeof p === 'object' &&
          p !== null &&
          !Array.isArray(p) &&
          Object.keys(p).every((k) => ['name', 'categoryId', 'status'].includes(k)) &&
          validName(p.name) &&
          Number.isSafeInteger(p.categoryId) &&
          (p.status === undefined || STATUSES.includes(p.status as string));
        expect(answer.status, body.slice(0, 100)).toBe(valid ? 201 : 400);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      runs(500),
    );
  });
});
