import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, continueIdsAt } from '@test/support/databases';
import { AUTH, JSON_CONTENT_TYPE, errorBody, startTestApp, type TestApp } from '@test/support/test-app';
// <refs>
import { makeExamples } from '@test/support/examples';
// </refs>

/**
 * The __things-kebab__ API over HTTP, on every database kind. Each test makes the __things__ it reads: no test
 * counts on an id, or on another having run.
 */
for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `__things-kebab__ API on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let t: TestApp;
// <no refs>
      beforeAll(async () => (t = await startTestApp({ kind })));
// </no refs>
// <refs>
      beforeAll(async () => {
        t = await startTestApp({ kind });
// <each port>
        // What the requests name, 1 and 2: the first two of a fresh database's __refModule__, made through its own API.
        expect(await makeExamples(t, '__refPath__', 2)).toEqual([1, 2]);
// </each>
      });
// </refs>
      afterAll(() => t?.close());

      const post = (body: object, key?: string) => {
        const request = t.http().post('/v1/__route__').set(AUTH);
        return (key ? request.set('idempotency-key', key) : request).send(body);
      };
      const get = (path: string) => t.http().get(path).set(AUTH);

// <sample>
      /** The fields a create needs (the others take their defaults), the __thing_words__ they make, and other values. */
      const REQUIRED = { __EACH:required(__field__: __exampleJson__)__ };
      const MADE = { __EACH:present(__field__: __madeJson__)__ };
// <update>
      const CHANGED = { __EACH:answer(__field__: __otherJson__)__ };
// </update>
      /** The JSON of __a_thing__ with the id `id`, exactly as the service writes it. */
      const textOf = (id: string, fields: object) => JSON.stringify({ id: 0, ...fields }).replace('"id":0', `"id":${id}`);

      it('creates __a_thing__: 201, its Location, defaults for the fields left out; gets it back', async () => {
        const response = await post(REQUIRED);
        expect(response.status).toBe(201);
        const { id } = response.body;
        expect(response.headers).toMatchObject({ 'content-type': JSON_CONTENT_TYPE, location: `/v1/__route__/${id}` });
        expect(response.body).toEqual({ id, ...MADE });
        const one = await get(`/v1/__route__/${id}`);
        expect([one.status, one.body]).toEqual([200, { id, ...MADE }]);
      });

      it('answers a retry with the same Idempotency-Key with the first answer, and adds nothing', async () => {
        const key = `retry-${kind.name}-${Date.now()}`;
        const first = await post(REQUIRED, key);
        const again = await post(REQUIRED, key);
        expect([first.status, again.status, again.text]).toEqual([201, 201, first.text]);
        expect(again.headers['idempotent-replayed']).toBe('true');
        const page = await get(`/v1/__route__?after=${BigInt(first.body.id) - 1n}`);
        expect(page.body).toEqual([first.body]);
      });

      it('pages by ascending id, following Link: rel="next" to the last page', async () => {
        const made: Array<{ id: number }> = [];
        for (let n = 0; n < 3; n++) made.push((await post(REQUIRED)).body);
        const from = BigInt(made[0].id) - 1n;
        const first = await get(`/v1/__route__?limit=2&after=${from}`);
        expect([first.status, first.body]).toEqual([200, made.slice(0, 2)]);
        expect(first.headers.link).toBe(`</v1/__route__?limit=2&after=${made[1].id}>; rel="next"`);
        const next = await get(/<([^>]+)>/.exec(first.headers.link)![1]);
        expect([next.status, next.body, next.headers.link]).toEqual([200, [made[2]], undefined]);
      });
// <update>

      it('changes the fields a PATCH gives, and keeps the others', async () => {
        const { id } = (await post(REQUIRED)).body;
        const patch = (body: object) => t.http().patch(`/v1/__route__/${id}`).set(AUTH).send(body);
        let expected: Record<string, unknown> = { id, ...MADE };
// <each field>
        expected = { ...expected, __field__: __otherJson__ };
        const __field__Changed = await patch({ __field__: __otherJson__ });
        expect([__field__Changed.status, __field__Changed.body]).toEqual([200, expected]);
        const __field__Refused = await patch({ __field__: __wrongJson__ });
        expect([__field__Refused.status, __field__Refused.body]).toEqual([
          400,
          errorBody(400, 'invalid_body', '__wrongWhy__'),
        ]);
// <optional>
        // null clears it: the answer has it no more.
        const __field__Cleared = await patch({ __field__: null });
        const { __field__: _cleared__Field__, ...without__Field__ } = expected;
        expect([__field__Cleared.status, __field__Cleared.body]).toEqual([200, without__Field__]);
        expected = { ...without__Field__, __field__: __otherJson__ };
        expect((await patch({ __field__: __otherJson__ })).body).toEqual(expected);
// </optional>
// </each>
        expect((await get(`/v1/__route__/${id}`)).body).toEqual(expected);
      });
// </update>
// <delete>

      it('removes __a_thing__: 204, then 404 for it', async () => {
        const { id } = (await post(REQUIRED)).body;
        const removed = await t.http().delete(`/v1/__route__/${id}`).set(AUTH);
        expect([removed.status, removed.text]).toEqual([204, '']);
        const missing = errorBody(404, '__thing_snake___not_found', `__thing_words__ ${id} does not exist`);
        expect((await get(`/v1/__route__/${id}`)).body).toEqual(missing);
        const again = await t.http().delete(`/v1/__route__/${id}`).set(AUTH);
        expect([again.status, again.body]).toEqual([404, missing]);
      });
// </delete>

      it.each<[object, string]>([
// <each field>
// <required>
        [{ ...REQUIRED, __field__: undefined }, '__field__ is required'],
// </required>
// <string>
        ...[__badLengths__].map((__field__): [object, string] => [{ ...REQUIRED, __field__ }, '__wrongWhy__']),
        [{ ...REQUIRED, __field__: 7 }, '__field__ must be a string'],
// </string>
// <int>
        ...[__badValues__].map((__field__): [object, string] => [{ ...REQUIRED, __field__ }, '__wrongWhy__']),
// </int>
// <int64>
        ...[__badValues__].map((__field__): [object, string] => [{ ...REQUIRED, __field__ }, '__wrongWhy__']),
// </int64>
// <enum>
        [{ ...REQUIRED, __field__: __wrongJson__ }, '__wrongWhy__'],
// </enum>
// </each>
        [{ ...REQUIRED, colour: 'red' }, "unknown property 'colour'"],
      ])('refuses %j with 400 invalid_body', async (body, message) => {
        const response = await post(body);
        expect(response.status).toBe(400);
        expect(response.body).toEqual(errorBody(400, 'invalid_body', message));
      });

// <each field>
// <int64>
// <not ref>
      it('keeps __field__ exact past 2^53, in and out', async () => {
        const body = JSON.stringify({ ...REQUIRED, __field__: 0 }).replace('"__field__":0', '"__field__":9007199254740993');
        const response = await t.http().post('/v1/__route__').set(AUTH).set('content-type', 'application/json').send(body);
        expect(response.status).toBe(201);
        expect(response.text).toContain('"__field__":9007199254740993');
        expect((await get(`/v1/__route__/${response.body.id}`)).text).toBe(response.text);
      });

// </not ref>
// </int64>
// <ref>
      it('answers 422 for a __field__ that names no __ref_words__, the id exact past 2^53', async () => {
        const body = JSON.stringify({ ...REQUIRED, __field__: 0 }).replace('"__field__":0', '"__field__":9007199254740993');
        const response = await t.http().post('/v1/__route__').set(AUTH).set('content-type', 'application/json').send(body);
        const unknown = errorBody(422, '__thing_snake___unknown___ref_snake__', '__field__ 9007199254740993 names no __ref_words__');
        expect([response.status, response.body]).toEqual([422, unknown]);
// <update>
        const { id } = (await post(REQUIRED)).body;
        const patched = await t.http().patch(`/v1/__route__/${id}`).set(AUTH).set('content-type', 'application/json').send(body);
        expect([patched.status, patched.body]).toEqual([422, unknown]);
        expect((await get(`/v1/__route__/${id}`)).body).toEqual({ id, ...MADE });
// </update>
      });

// </ref>
// </each>
      it('keeps ids past 2^53 exact through every operation it serves', async () => {
        await continueIdsAt(t.database.url, '__things_snake__', 2n ** 53n);
        const created = await post(REQUIRED);
        expect(created.text).toBe(textOf('9007199254740992', MADE));
        expect(created.headers.location).toBe('/v1/__route__/9007199254740992');
        const next = await post(REQUIRED);
        expect(next.text).toBe(textOf('9007199254740993', MADE));
        expect((await get('/v1/__route__/9007199254740993')).text).toBe(next.text);
        const page = await get('/v1/__route__?limit=1&after=9007199254740992');
        expect([page.text, page.headers.link]).toEqual([`[${next.text}]`, undefined]);
// <update>
        const changed = await t.http().patch('/v1/__route__/9007199254740992').set(AUTH).send(CHANGED);
        expect(changed.text).toBe(textOf('9007199254740992', CHANGED));
// </update>
// <delete>
        expect((await t.http().delete('/v1/__route__/9007199254740993').set(AUTH)).status).toBe(204);
// </delete>
      });

// </sample>
// <bare>
      it('creates __a_thing__: 201, its Location; gets it back', async () => {
        const response = await post({});
        expect(response.status).toBe(201);
        const { id } = response.body;
        expect(response.headers).toMatchObject({ 'content-type': JSON_CONTENT_TYPE, location: `/v1/__route__/${id}` });
        expect(response.body).toEqual({ id });
        const one = await get(`/v1/__route__/${id}`);
        expect([one.status, one.body]).toEqual([200, { id }]);
      });

      it('answers a retry with the same Idempotency-Key with the first answer, and adds nothing', async () => {
        const key = `retry-${kind.name}-${Date.now()}`;
        const first = await post({}, key);
        const again = await post({}, key);
        expect([first.status, again.status, again.text]).toEqual([201, 201, first.text]);
        expect(again.headers['idempotent-replayed']).toBe('true');
        const other = await post({});
        expect(BigInt(other.body.id)).toBe(BigInt(first.body.id) + 1n);
      });

      it('refuses a property it does not have with 400 invalid_body', async () => {
        const response = await post({ colour: 'red' });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(errorBody(400, 'invalid_body', "unknown property 'colour'"));
      });

      it('keeps ids past 2^53 exact: created and read by them', async () => {
        await continueIdsAt(t.database.url, '__things_snake__', 2n ** 53n + 1n);
        const created = await post({});
        expect([created.text, created.headers.location]).toEqual([
          '{"id":9007199254740993}',
          '/v1/__route__/9007199254740993',
        ]);
        expect((await get('/v1/__route__/9007199254740993')).text).toBe(created.text);
      });

// </bare>
      it('answers 404 for an id no __thing_words__ has, exactly as written', async () => {
        const response = await get('/v1/__route__/9223372036854775807');
        expect(response.status).toBe(404);
        expect(response.body).toEqual(
          errorBody(404, '__thing_snake___not_found', '__thing_words__ 9223372036854775807 does not exist'),
        );
      });

      it.each(['1e3', '9223372036854775808'])('answers 400 for the id %s, which is not an int64', async (id) => {
        const response = await get(`/v1/__route__/${id}`);
        expect(response.status).toBe(400);
        expect(response.body).toEqual(
          errorBody(
            400,
            'invalid_parameter',
            '__thing__Id must be an integer from -9223372036854775808 to 9223372036854775807',
          ),
        );
      });

      it('answers 401 without a key', async () => {
        const response = await t.http().get('/v1/__route__/1');
        expect(response.status).toBe(401);
        expect(response.body).toEqual(
          errorBody(401, 'missing_api_key', 'an API key is required: send Authorization: Bearer <key>'),
        );
      });
    },
  );
}
