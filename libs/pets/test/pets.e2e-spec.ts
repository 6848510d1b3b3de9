import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '@test/support/databases';
import { AUTH, JSON_CONTENT_TYPE, errorBody, startTestApp, type TestApp } from '@test/support/test-app';

/** Every id of a request (path or cursor) is an int64. */
const ID_RULE = 'an integer from -9223372036854775808 to 9223372036854775807';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const CATEGORY_RULE = 'categoryId must be an integer from -9223372036854775808 to 9223372036854775807';

const DEPRECATION_HEADERS = {
  deprecation: '@1795219200',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: '</v1/pets>; rel="successor-version"',
};

for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `pets API on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      describe('createPet: POST /v1/pets', () => {
        let t: TestApp;
        beforeAll(async () => (t = await startTestApp({ kind })));
        afterAll(() => t?.close());

        const post = (body: unknown) =>
          t
            .http()
            .post('/v1/pets')
            .set(AUTH)
            .send(body as object);

        it('answers 201 with the pet, its Location, and no status property when none was given', async () => {
          const first = await post({ name: 'Rex', categoryId: 5 });
          expect(first.status).toBe(201);
          expect(first.headers['content-type']).toBe(JSON_CONTENT_TYPE);
          expect(first.body).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: 5 });
          expect(first.text).not.toContain('status');
          expect(first.headers.location).toBe(`/v1/pets/${first.body.id}`);

          const second = await post({ name: 'Tom', categoryId: 6, status: 'pending' });
          expect(second.status).toBe(201);
          expect(second.body).toEqual({ id: first.body.id + 1, name: 'Tom', categoryId: 6, status: 'pending' });
          expect(second.headers.location).toBe(`/v1/pets/${first.body.id + 1}`);
        });

        it.each([
          ['a 255-character name', { name: 'n'.repeat(255), categoryId: 1 }],
          ['a name of 255 emoji', { name: '🐈'.repeat(255), categoryId: 1 }],
          ['a name with variation selectors', { name: '\u2764\ufe0f'.repeat(127), categoryId: 1 }],
          ['a name in other scripts', { name: 'Мурзик 小虎 ميشو', categoryId: 1 }],
          ['the largest safe categoryId', { name: 'Max', categoryId: MAX_SAFE }],
          ['the smallest safe categoryId', { name: 'Min', categoryId: -MAX_SAFE }],
          ['every status', { name: 'Sold', categoryId: 0, status: 'sold' }],
        ])('keeps %s exactly', async (_case, pet) => {
          const created = await post(pet);
          expect(created.status).toBe(201);
          expect(created.body).toEqual({ id: expect.any(Number), ...pet });
          const fetched = await t.http().get(`/v1/pets/${created.body.id}`).set(AUTH);
          expect(fetched.body).toEqual(created.body);
        });

        it.each([
          ['name missing', { categoryId: 1 }, 'name is required'],
          ['categoryId missing', { name: 'Rex' }, 'categoryId is required'],
          ['name null', { name: null, categoryId: 1 }, 'name is required'],
          ['name a number', { name: 5, categoryId: 1 }, 'name must be a string'],
          ['name empty', { name: '', categoryId: 1 }, 'name must be 1 to 255 characters long'],
          ['name too long', { name: 'n'.repeat(256), categoryId: 1 }, 'name must be 1 to 255 characters long'],
          ['name of 256 emoji', { name: '🐈'.repeat(256), categoryId: 1 }, 'name must be 1 to 255 characters long'],
          [
            'name with a lone surrogate',
            { name: 'Rex\ud83d', categoryId: 1 },
            'name must be well-formed Unicode (no lone surrogates)',
          ],
          ['name with a NUL', { name: 'Rex\u0000', categoryId: 1 }, 'name must not contain control characters'],
          ['name with a newline', { name: 'Rex\nBoss', categoryId: 1 }, 'name must not contain control characters'],
          [
            'name with a bidi override',
            { name: 'Rex\u202egnp.exe', categoryId: 1 },
            'name must not contain bidirectional control characters',
          ],
          [
            'name with a line separator',
            { name: 'Rex\u2028Boss', categoryId: 1 },
            'name must not contain line or paragraph separators (U+2028, U+2029)',
          ],
          [
            'name hiding tag characters',
            { name: 'Rex\u{E0041}\u{E0042}', categoryId: 1 },
            'name must not contain tag characters (U+E0000 to U+E007F)',
          ],
          [
            'name of spaces only',
            { name: '   ', categoryId: 1 },
            'name must contain a visible character (a letter, digit, punctuation or symbol)',
          ],
          [
            'name of zero-width characters only',
            { name: '\u200b\u200d\ufeff', categoryId: 1 },
            'name must contain a visible character (a letter, digit, punctuation or symbol)',
          ],
          ['categoryId a string', { name: 'Rex', categoryId: '5' }, CATEGORY_RULE],
          ['categoryId a fraction', { name: 'Rex', categoryId: 1.5 }, CATEGORY_RULE],
          ['categoryId written as an exponent', { name: 'Rex', categoryId: 1e21 }, CATEGORY_RULE],
          ['categoryId a boolean', { name: 'Rex', categoryId: true }, CATEGORY_RULE],
          [
            'status in capitals',
            { name: 'Rex', categoryId: 1, status: 'SOLD' },
            'status must be one of available, pending, sold',
          ],
          [
            'status null',
            { name: 'Rex', categoryId: 1, status: null },
            'status must be one of available, pending, sold',
          ],
          [
            'status unknown',
            { name: 'Rex', categoryId: 1, status: 'lost' },
            'status must be one of available, pending, sold',
          ],
          ['an unknown property', { name: 'Rex', categoryId: 1, colour: 'red' }, "unknown property 'colour'"],
          ['an id', { id: 9, name: 'Rex', categoryId: 1 }, "unknown property 'id'"],
          ['a constructor key', { name: 'Rex', categoryId: 1, constructor: 1 }, "unknown property 'constructor'"],
        ])('answers 400 for %s', async (_case, body, message) => {
          const response = await post(body);
          expect(response.status).toBe(400);
          expect(response.headers['content-type']).toBe(JSON_CONTENT_TYPE);
          expect(response.body).toEqual(errorBody(400, 'invalid_body', message));
        });

        const postText = (text: string) =>
          t.http().post('/v1/pets').set(AUTH).set('content-type', 'application/json').send(text);

        // JSON.parse would round these to another number: a pet must never be stored under a category it was not sent.
        it.each(['9007199254740993', '9223372036854775807', '-9223372036854775808'])(
          'keeps categoryId %s exact, in the answer and when read back',
          async (categoryId) => {
            const created = await postText(`{"name":"Big","categoryId":${categoryId}}`);
            expect(created.status).toBe(201);
            expect(created.text).toBe(`{"id":${created.body.id},"name":"Big","categoryId":${categoryId}}`);
            const fetched = await t.http().get(`/v1/pets/${created.body.id}`).set(AUTH);
            expect(fetched.text).toBe(created.text);
          },
        );

        it.each(['9223372036854775808', '-9223372036854775809', '100000000000000000000'])(
          'answers 400 for categoryId %s, outside int64',
          async (categoryId) => {
            const response = await postText(`{"name":"Big","categoryId":${categoryId}}`);
            expect(response.status).toBe(400);
            expect(response.body).toEqual(errorBody(400, 'invalid_body', CATEGORY_RULE));
          },
        );

        it.each([
          ['null', 'null'],
          ['an array', '[{"name":"Rex","categoryId":1}]'],
          ['a string', '"Rex"'],
          ['a number', '42'],
        ])('answers 400 when the body is %s', async (_case, raw) => {
          const response = await t.http().post('/v1/pets').set(AUTH).set('content-type', 'application/json').send(raw);
          expect(response.status).toBe(400);
          expect(response.body).toEqual(errorBody(400, 'invalid_body', 'request body must be a JSON object'));
        });

        it.each([
          ['empty', true],
          ['not there at all', false],
        ])('answers 400 when the body is %s: it is missing', async (_case, empty) => {
          const request = t.http().post('/v1/pets').set(AUTH);
          const response = await (empty ? request.set('content-type', 'application/json').send('') : request);
          expect(response.status).toBe(400);
          expect(response.body).toEqual(errorBody(400, 'invalid_body', 'request body is missing: send a JSON object'));
        });

        it.each([
          ['malformed JSON', '{"name": "Rex",'],
          ['a __proto__ key', '{"name":"Rex","categoryId":1,"__proto__":{"admin":true}}'],
          ['a constructor.prototype key', '{"name":"Rex","categoryId":1,"constructor":{"prototype":{"admin":true}}}'],
        ])('answers 400 malformed_json for %s', async (_case, raw) => {
          const response = await t.http().post('/v1/pets').set(AUTH).set('content-type', 'application/json').send(raw);
          expect(response.status).toBe(400);
          expect(response.body).toEqual(
            errorBody(
              400,
              'malformed_json',
              'request body is not valid JSON, or uses a forbidden key (__proto__ or constructor.prototype)',
            ),
          );
        });

        it('answers 413 for a body over 16 KiB and stores nothing', async () => {
          const before = await t.http().get('/v1/pets?limit=100').set(AUTH);
          const response = await post({ name: 'n'.repeat(16 * 1024), categoryId: 1 });
          expect(response.status).toBe(413);
          expect(response.headers['content-type']).toBe(JSON_CONTENT_TYPE);
          expect(response.body).toEqual(
            errorBody(413, 'payload_too_large', 'request body must not exceed 16384 bytes'),
          );
          const after = await t.http().get('/v1/pets?limit=100').set(AUTH);
          expect(after.body).toEqual(before.body);
        });

        it.each([
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/xml',
          'multipart/form-data; boundary=x',
        ])('answers 415 for Content-Type %s', async (contentType) => {
          const response = await t
            .http()
            .post('/v1/pets')
            .set(AUTH)
            .set('content-type', contentType)
            .send('name=Rex&categoryId=1');
          expect(response.status).toBe(415);
          expect(response.headers['content-type']).toBe(JSON_CONTENT_TYPE);
          expect(response.body).toEqual(
            errorBody(415, 'unsupported_media_type', 'Content-Type must be application/json'),
          );
        });

        it('accepts application/json with a charset', async () => {
          const response = await t
            .http()
            .post('/v1/pets')
            .set(AUTH)
            .set('content-type', 'application/json; charset=utf-8')
            .send('{"name":"Charset","categoryId":2}');
          expect(response.status).toBe(201);
          expect(response.body).toEqual({ id: expect.any(Number), name: 'Charset', categoryId: 2 });
        });
      });

      describe('listPets pages: Link rel="next" and the after cursor', () => {
        let t: TestApp;
        beforeAll(async () => {
          t = await startTestApp({ kind });
          for (let n = 1; n <= 9; n++) {
            await t
              .http()
              .post('/v1/pets')
              .set(AUTH)
              .send({ name: `page-${n}`, categoryId: n, status: n % 3 === 0 ? 'sold' : 'available' });
          }
        });
        afterAll(() => t?.close());

        const nextOf = (link: string | undefined) => (link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : undefined);

        /** Follows `next` from `first`; `between` runs after each page. */
        async function walk(first: string, between: () => Promise<void> = async () => undefined) {
          const pages: number[][] = [];
          for (let url: string | undefined = first; url !== undefined && pages.length < 50;) {
            const response = await t.http().get(url).set(AUTH);
            expect(response.status).toBe(200);
            pages.push((response.body as Array<{ id: number }>).map((pet) => pet.id));
            url = nextOf(response.headers.link);
            await between();
          }
          return pages;
        }

        it('links each page to the next with the same limit and status, and the last page to nothing', async () => {
          const first = await t.http().get('/v1/pets?limit=4').set(AUTH);
          expect(first.headers.link).toBe('</v1/pets?limit=4&after=4>; rel="next"');
          expect(await walk('/v1/pets?limit=4')).toEqual([[1, 2, 3, 4], [5, 6, 7, 8], [9]]);
          expect(await walk('/v1/pets?status=sold&limit=2')).toEqual([[3, 6], [9]]);
          const sold = await t.http().get('/v1/pets?status=sold&limit=2').set(AUTH);
          expect(sold.headers.link).toBe('</v1/pets?limit=2&status=sold&after=6>; rel="next"');
          // A last page that is exactly full has no next either.
          const full = await t.http().get('/v1/pets?limit=3&after=6').set(AUTH);
          expect(full.body.map((pet: { id: number }) => pet.id)).toEqual([7, 8, 9]);
          expect(full.headers).not.toHaveProperty('link');
        });

        it('visits every matching pet exactly once, in id order, for any limit and status', async () => {
          for (const status of [undefined, 'available', 'sold', 'pending']) {
            const all = (
              await t
                .http()
                .get(`/v1/pets?limit=100${status ? `&status=${status}` : ''}`)
                .set(AUTH)
            ).body.map((pet: { id: number }) => pet.id);
            for (let limit = 1; limit <= 10; limit++) {
              const pages = await walk(`/v1/pets?limit=${limit}${status ? `&status=${status}` : ''}`);
              expect(pages.flat()).toEqual(all);
              expect(pages.slice(0, -1).every((page) => page.length === limit)).toBe(true);
            }
          }
        });

        it('visits every pet exactly once while others are created between the pages', async () => {
          let n = 0;
          const pages = await walk('/v1/pets?limit=2', async () => {
            if (n++ < 5)
              await t
                .http()
                .post('/v1/pets')
                .set(AUTH)
                .send({ name: `between-${n}`, categoryId: n });
          });
          const all = (await t.http().get('/v1/pets?limit=100').set(AUTH)).body.map((pet: { id: number }) => pet.id);
          expect(pages.flat()).toEqual(all);
          expect(all.length).toBe(14);
        });

        it.each([['abc'], ['1e3'], ['1.5'], ['0x10'], ['+1'], ['9223372036854775808'], ['1'.repeat(120)]])(
          'answers after=%s 400 invalid_parameter naming it',
          async (after) => {
            const response = await t.http().get(`/v1/pets?after=${after}`).set(AUTH);
            expect(response.status).toBe(400);
            expect(response.body).toEqual(errorBody(400, 'invalid_parameter', `after must be a pet id, ${ID_RULE}`));
          },
        );

        it.each([
          ['-5', 'every pet'],
          ['9007199254740992', 'nothing'],
          ['9223372036854775807', 'nothing'],
        ])('reads after=%s, an int64 no pet has, as the page after it: %s', async (after, what) => {
          const all = (await t.http().get('/v1/pets?limit=100').set(AUTH)).body;
          const response = await t.http().get(`/v1/pets?limit=100&after=${after}`).set(AUTH);
          expect(response.status).toBe(200);
          expect(response.body).toEqual(what === 'nothing' ? [] : all);
        });

        it.each(['after=1&after=2', 'after='])(
          'answers %s 400 invalid_parameter naming it, after the key',
          async (query) => {
            const response = await t.http().get(`/v1/pets?${query}`).set(AUTH);
            expect(response.status).toBe(400);
            expect(response.body).toEqual(errorBody(400, 'invalid_parameter', `after must be a pet id, ${ID_RULE}`));
            const anonymous = await t.http().get(`/v1/pets?${query}`);
            expect(anonymous.status).toBe(401);
          },
        );
      });

      describe('listPets: GET /v1/pets', () => {
        let t: TestApp;
        const statuses = ['available', 'pending', 'sold', undefined] as const;
        const created: Array<Record<string, unknown>> = [];

        beforeAll(async () => {
          t = await startTestApp({ kind });
          for (let i = 0; i < 30; i++) {
            const status = statuses[i % 4];
            const response = await t
              .http()
              .post('/v1/pets')
              .set(AUTH)
              .send({ name: `pet-${i}`, categoryId: i, ...(status ? { status } : {}) });
            created.push(response.body);
          }
        });
        afterAll(() => t?.close());

        it('answers an empty array on an empty catalogue', async () => {
          const empty = await startTestApp({ kind });
          try {
            const response = await empty.http().get('/v1/pets').set(AUTH);
            expect(response.status).toBe(200);
            expect(response.headers['content-type']).toBe(JSON_CONTENT_TYPE);
            expect(response.body).toEqual([]);
          } finally {
            await empty.close();
          }
        });

        it('answers the first 20 pets by ascending id by default', async () => {
          const response = await t.http().get('/v1/pets').set(AUTH);
          expect(response.status).toBe(200);
          expect(response.headers['content-type']).toBe(JSON_CONTENT_TYPE);
          expect(response.body).toEqual(created.slice(0, 20));
        });

        it.each([1, 7, 30, 100])('answers at most limit=%d pets', async (limit) => {
          const response = await t.http().get(`/v1/pets?limit=${limit}`).set(AUTH);
          expect(response.status).toBe(200);
          expect(response.body).toEqual(created.slice(0, limit));
        });

        it.each(['available', 'pending', 'sold'])('answers only the %s pets', async (status) => {
          const response = await t.http().get(`/v1/pets?status=${status}&limit=100`).set(AUTH);
          expect(response.status).toBe(200);
          expect(response.body).toEqual(created.filter((pet) => pet.status === status));
          expect(response.body).toHaveLength(status === 'available' || status === 'pending' ? 8 : 7);
        });

        it('combines status and limit', async () => {
          const response = await t.http().get('/v1/pets?status=sold&limit=2').set(AUTH);
          expect(response.body).toEqual(created.filter((pet) => pet.status === 'sold').slice(0, 2));
        });

        it.each([
          ['limit=0', 'limit must be an integer from 1 to 100'],
          ['limit=101', 'limit must be an integer from 1 to 100'],
          ['limit=-1', 'limit must be an integer from 1 to 100'],
          ['limit=abc', 'limit must be an integer from 1 to 100'],
          ['limit=1.5', 'limit must be an integer from 1 to 100'],
          ['limit=1e1', 'limit must be an integer from 1 to 100'],
          ['limit=+5', 'limit must be an integer from 1 to 100'],
          ['limit=', 'limit must be an integer from 1 to 100'],
          ['limit=5&limit=6', 'limit must be an integer from 1 to 100'],
          ['limit=99999999999999999999', 'limit must be an integer from 1 to 100'],
          ['status=SOLD', 'status must be one of available, pending, sold'],
          ['status=', 'status must be one of available, pending, sold'],
          ['status=lost', 'status must be one of available, pending, sold'],
          ['status=sold&status=sold', 'status must be one of available, pending, sold'],
          ['colour=red', "unknown property 'colour'"],
        ])('answers 400 naming the parameter for ?%s', async (query, message) => {
          const response = await t.http().get(`/v1/pets?${query}`).set(AUTH);
          expect(response.status).toBe(400);
          expect(response.headers['content-type']).toBe(JSON_CONTENT_TYPE);
          expect(response.body).toEqual(errorBody(400, 'invalid_parameter', message));
        });
      });

      describe('getPet: GET /v1/pets/{petId} (deprecated)', () => {
        let t: TestApp;
        let pet: Record<string, unknown>;
        beforeAll(async () => {
          t = await startTestApp({ kind });
          pet = (await t.http().post('/v1/pets').set(AUTH).send({ name: 'Rex', categoryId: 3, status: 'available' }))
            .body;
        });
        afterAll(() => t?.close());

        it('answers 200 with the pet and the deprecation headers', async () => {
          const response = await t.http().get(`/v1/pets/${pet.id}`).set(AUTH);
          expect(response.status).toBe(200);
          expect(response.headers).toMatchObject({ 'content-type': JSON_CONTENT_TYPE, ...DEPRECATION_HEADERS });
          expect(response.body).toEqual({ id: pet.id, name: 'Rex', categoryId: 3, status: 'available' });
        });

        it.each(['999999', '-1', '0', '007', '9007199254740993', '9223372036854775807', '-9223372036854775808'])(
          'answers 404 pet_not_found for %s',
          async (id) => {
            const response = await t.http().get(`/v1/pets/${id}`).set(AUTH);
            expect(response.status).toBe(404);
            expect(response.headers).toMatchObject({ 'content-type': JSON_CONTENT_TYPE, ...DEPRECATION_HEADERS });
            expect(response.body).toEqual(errorBody(404, 'pet_not_found', `pet ${BigInt(id)} does not exist`));
          },
        );

        it.each(['abc', '1.5', '1e3', '0x10', '%20', '1a', '9223372036854775808', '1'.repeat(120)])(
          'answers 400 for the petId %j',
          async (id) => {
            const response = await t.http().get(`/v1/pets/${id}`).set(AUTH);
            expect(response.status).toBe(400);
            expect(response.headers).toMatchObject({ 'content-type': JSON_CONTENT_TYPE, ...DEPRECATION_HEADERS });
            expect(response.body).toEqual(errorBody(400, 'invalid_parameter', `petId must be ${ID_RULE}`));
          },
        );

        it.each(['foo=1', 'status=sold', 'limit='])(
          'refuses the query parameter of %s as listPets refuses an unknown one: 400 naming it',
          async (query) => {
            const response = await t.http().get(`/v1/pets/${pet.id}?${query}`).set(AUTH);
            expect(response.status).toBe(400);
            expect(response.headers).toMatchObject({ 'content-type': JSON_CONTENT_TYPE, ...DEPRECATION_HEADERS });
            expect(response.body).toEqual(
              errorBody(400, 'invalid_parameter', `unknown property '${query.split('=')[0]}'`),
            );
          },
        );

        it('carries the deprecation headers on its 401 too', async () => {
          const response = await t.http().get(`/v1/pets/${pet.id}`);
          expect(response.status).toBe(401);
          expect(response.headers).toMatchObject(DEPRECATION_HEADERS);
          expect(response.body).toEqual(
            errorBody(401, 'missing_api_key', 'an API key is required: send Authorization: Bearer <key>'),
          );
        });

        it('does not mark the operations that are not deprecated', async () => {
          const response = await t.http().get('/v1/pets').set(AUTH);
          expect(response.headers).not.toHaveProperty('deprecation');
          expect(response.headers).not.toHaveProperty('sunset');
          expect(response.headers).not.toHaveProperty('link');
        });
      });
    },
  );
}
