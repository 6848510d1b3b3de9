import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH,
  JSON_CONTENT_TYPE,
  OTHER_API_KEY,
  TEST_API_KEY,
  errorBody,
  startTestApp,
  type TestApp,
} from './support/test-app';

const MISSING = errorBody(401, 'missing_api_key', 'an API key is required: send Authorization: Bearer <key>');
const INVALID = errorBody(401, 'invalid_api_key', 'the API key is not valid');
const CHALLENGE = 'Bearer realm="petstore"';
const INVALID_TOKEN_CHALLENGE = 'Bearer realm="petstore", error="invalid_token"';

const OPERATIONS = [
  { name: 'listPets', method: 'get', path: '/v1/pets', body: undefined },
  { name: 'createPet', method: 'post', path: '/v1/pets', body: { name: 'Rex', categoryId: 1 } },
  { name: 'getPet', method: 'get', path: '/v1/pets/1', body: undefined },
] as const;

describe('bearer authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await t.http().post('/v1/pets').set(AUTH).send({ name: 'Rex', categoryId: 1 });
  });
  afterAll(() => t?.close());

  const call = (operation: (typeof OPERATIONS)[number], authorization?: string) => {
    const req = t.http()[operation.method](operation.path);
    if (authorization !== undefined) req.set('authorization', authorization);
    return operation.body ? req.send(operation.body) : req;
  };

  describe.each(OPERATIONS)('$name', (operation) => {
    const missing = { body: MISSING, challenge: CHALLENGE };
    const invalid = { body: INVALID, challenge: INVALID_TOKEN_CHALLENGE };
    it.each([
      ['no Authorization header', undefined, missing],
      ['an empty Authorization header', '', missing],
      ['an unknown key', 'Bearer not-a-configured-key-at-all', invalid],
      ['a known key with a character changed', `Bearer ${TEST_API_KEY.slice(0, -1)}X`, invalid],
      ['a prefix of a known key', `Bearer ${TEST_API_KEY.slice(0, 10)}`, invalid],
      ['the key without a scheme', TEST_API_KEY, invalid],
      ['the Basic scheme', `Basic ${Buffer.from(`user:${TEST_API_KEY}`).toString('base64')}`, invalid],
      ['Bearer without a token', 'Bearer', invalid],
      ['two tokens', `Bearer ${TEST_API_KEY} ${TEST_API_KEY}`, invalid],
    ])('answers 401 for %s', async (_case, authorization, expected) => {
      const response = await call(operation, authorization);
      expect(response.status).toBe(401);
      expect(response.headers['content-type']).toBe(JSON_CONTENT_TYPE);
      expect(response.headers['www-authenticate']).toBe(expected.challenge);
      expect(response.body).toEqual(expected.body);
    });

    it.each([
      ['Bearer', TEST_API_KEY],
      ['bearer', TEST_API_KEY],
      ['BEARER', TEST_API_KEY],
      ['BeArEr', OTHER_API_KEY],
    ])('accepts the scheme written %s', async (scheme, key) => {
      const response = await call(operation, `${scheme} ${key}`);
      expect(response.status).toBeLessThan(300);
      expect(response.headers).not.toHaveProperty('www-authenticate');
    });
  });

  describe('credentials are checked before anything else', () => {
    it('answers 401 rather than 400 for an invalid query', async () => {
      const response = await t.http().get('/v1/pets?limit=0&status=LOST');
      expect(response.status).toBe(401);
      expect(response.body).toEqual(MISSING);
    });

    it('answers 401 rather than 400 for malformed JSON', async () => {
      const response = await t
        .http()
        .post('/v1/pets')
        .set('authorization', 'Bearer wrong-key-wrong-key')
        .set('content-type', 'application/json')
        .send('{"name":');
      expect(response.status).toBe(401);
      expect(response.body).toEqual(INVALID);
    });

    it('answers 401 rather than 415 for another media type', async () => {
      const response = await t.http().post('/v1/pets').set('content-type', 'text/plain').send('hello');
      expect(response.status).toBe(401);
      expect(response.body).toEqual(MISSING);
    });

    it('answers 401 rather than 413 for a body over the limit', async () => {
      const response = await t
        .http()
        .post('/v1/pets')
        .send({ name: 'n'.repeat(20_000), categoryId: 1 });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(MISSING);
    });

    it('answers 401 rather than 400 for a bad petId', async () => {
      const response = await t.http().get('/v1/pets/abc');
      expect(response.status).toBe(401);
      expect(response.body).toEqual(MISSING);
    });

    it('stores nothing for a rejected caller', async () => {
      const before = await t.http().get('/v1/pets?limit=100').set(AUTH);
      await t.http().post('/v1/pets').send({ name: 'Intruder', categoryId: 1 });
      await t
        .http()
        .post('/v1/pets')
        .set('authorization', 'Bearer wrong-key-wrong-key')
        .send({ name: 'Intruder', categoryId: 1 });
      const after = await t.http().get('/v1/pets?limit=100').set(AUTH);
      expect(after.body).toEqual(before.body);
      expect(after.body.map((pet: { name: string }) => pet.name)).not.toContain('Intruder');
    });
  });
});
