import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '@test/support/databases';
import { AUTH, JSON_CONTENT_TYPE, errorBody, startTestApp, type TestApp } from '@test/support/test-app';

for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `__things-kebab__ API on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let t: TestApp;
      beforeAll(async () => (t = await startTestApp({ kind })));
      afterAll(() => t?.close());

      const post = (body: object) => t.http().post('/v1/__route__').set(AUTH).send(body);

// <sample>
      it('creates __a_thing__: 201, its Location, a draft by default', async () => {
        const response = await post({ name: 'First' });
        expect(response.status).toBe(201);
        expect(response.headers).toMatchObject({ 'content-type': JSON_CONTENT_TYPE, location: '/v1/__route__/1' });
        expect(response.body).toEqual({ id: 1, name: 'First', status: 'draft' });
      });

      it('gets it back, and lists __things__ by ascending id', async () => {
        await post({ name: 'Second', status: 'active' });
        const one = await t.http().get('/v1/__route__/2').set(AUTH);
        expect(one.status).toBe(200);
        expect(one.body).toEqual({ id: 2, name: 'Second', status: 'active' });
        const list = await t.http().get('/v1/__route__?limit=1').set(AUTH);
        expect(list.status).toBe(200);
        expect(list.body).toEqual([{ id: 1, name: 'First', status: 'draft' }]);
      });

      it.each([
        [{}, 'name is required'],
        [{ name: '' }, 'name must be 1 to 255 characters long'],
        [{ name: 7 }, 'name must be a string'],
        [{ name: 'x', status: 'lost' }, 'status must be one of draft, active, retired'],
        [{ name: 'x', colour: 'red' }, "unknown property 'colour'"],
      ])('refuses %j with 400 invalid_body', async (body, message) => {
        const response = await post(body);
        expect(response.status).toBe(400);
        expect(response.body).toEqual(errorBody(400, 'invalid_body', message));
      });

// </sample>
// <bare>
      it('creates __a_thing__: 201, its Location', async () => {
        const response = await post({});
        expect(response.status).toBe(201);
        expect(response.headers).toMatchObject({ 'content-type': JSON_CONTENT_TYPE, location: '/v1/__route__/1' });
        expect(response.body).toEqual({ id: 1 });
      });

      it('gets it back', async () => {
        const one = await t.http().get('/v1/__route__/1').set(AUTH);
        expect(one.status).toBe(200);
        expect(one.body).toEqual({ id: 1 });
      });

      it('refuses a property it does not have with 400 invalid_body', async () => {
        const response = await post({ colour: 'red' });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(errorBody(400, 'invalid_body', "unknown property 'colour'"));
      });

// </bare>
      it('answers 404 for an id it does not have, exactly as written', async () => {
        const response = await t.http().get('/v1/__route__/9007199254740993').set(AUTH);
        expect(response.status).toBe(404);
        expect(response.body).toEqual(
          errorBody(404, '__thing_snake___not_found', '__thing__ 9007199254740993 does not exist'),
        );
      });

      it.each(['1e3', '9223372036854775808'])('answers 400 for the id %s, which is not an int64', async (id) => {
        const response = await t.http().get(`/v1/__route__/${id}`).set(AUTH);
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
