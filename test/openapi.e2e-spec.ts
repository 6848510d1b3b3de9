import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX, OPENAPI_JSON_PATH, RouteIndex } from '@app/platform';
import { startTestApp, type TestApp } from './support/test-app';

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const errorResponse = (status: number) => ({
  [status]: expect.objectContaining({
    content: { 'application/json': expect.objectContaining({ schema: ERROR_REF }) },
  }),
});

const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: any;
  beforeAll(async () => {
    t = await startTestApp({
      env: { PRODUCTION_BASE_URL: 'https://api.example.com/v1', STAGING_BASE_URL: 'https://staging.example.com/v1' },
    });
    document = (await t.http().get('/v1/openapi.json')).body;
  });
  afterAll(() => t?.close());

  it('is served at /v1/openapi.json without a key', async () => {
    const response = await t.http().get('/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual(document);
  });

  it('is a valid OpenAPI 3 document', async () => {
    const validated = (await SwaggerParser.validate(structuredClone(document))) as { openapi?: string };
    expect(validated.openapi).toMatch(/^3\./);
  });

  it('states version 1.0.0 and the configured production and staging servers', () => {
    expect(document.info).toMatchObject({ title: 'Pet Store', version: '1.0.0' });
    expect(document.servers).toEqual([
      { url: 'https://api.example.com/v1', description: 'Production' },
      { url: 'https://staging.example.com/v1', description: 'Staging' },
    ]);
  });

  it('documents every operation the application serves under /v1, and no other', () => {
    const served = t.app
      .get(RouteIndex)
      .routes()
      .filter(
        ({ method, path }) =>
          path.startsWith(`${API_PREFIX}/`) && path !== OPENAPI_JSON_PATH && !['HEAD', 'OPTIONS'].includes(method),
      )
      .map(({ method, path }) => `${method} ${path.slice(API_PREFIX.length).replace(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(served.length).toBeGreaterThanOrEqual(3);
    expect(documented.sort()).toEqual(served.sort());
  });

  it('names the three pets operations as the contract does', () => {
    expect(document.paths['/pets'].get.operationId).toBe('listPets');
    expect(document.paths['/pets'].post.operationId).toBe('createPet');
    expect(document.paths['/pets/{petId}'].get.operationId).toBe('getPet');
  });

  it('applies the bearer scheme to every operation', () => {
    expect(document.components.securitySchemes).toEqual({
      bearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'API key',
        description: 'An API key: `Authorization: Bearer <key>`.',
      },
    });
    expect(document.security).toEqual([{ bearer: [] }]);
    for (const operation of [
      document.paths['/pets'].get,
      document.paths['/pets'].post,
      document.paths['/pets/{petId}'].get,
    ]) {
      // No requirement of its own: the document's applies (OpenAPI 3, "security" at the top level).
      expect(operation.security).toBeUndefined();
    }
  });

  it('describes listPets: limit 1..100 default 20, the status filter, the after cursor, an array of Pet with Link', () => {
    const operation = document.paths['/pets'].get;
    expect(operation.deprecated).toBeUndefined();
    expect(operation.parameters).toEqual([
      expect.objectContaining({
        name: 'limit',
        in: 'query',
        required: false,
        schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 100, default: 20 },
      }),
      expect.objectContaining({
        name: 'status',
        in: 'query',
        required: false,
        schema: { $ref: '#/components/schemas/PetStatus' },
      }),
      expect.objectContaining({
        name: 'after',
        in: 'query',
        required: false,
        schema: { type: 'integer', format: 'int64' },
      }),
    ]);
    expect(operation.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Pet' },
    });
    expect(Object.keys(operation.responses['200'].headers).sort()).toEqual([
      'Link',
      ...RATE_LIMIT_HEADERS,
      'X-Request-Id',
    ]);
    expect(operation.responses).toMatchObject({
      ...errorResponse(400),
      ...errorResponse(401),
      ...errorResponse(429),
      ...errorResponse(500),
      ...errorResponse(503),
    });
  });

  it('describes createPet: a required NewPet body, 201 with Location, and its errors', () => {
    const operation = document.paths['/pets'].post;
    expect(operation.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } },
    });
    expect(operation.responses['201']).toMatchObject({
      headers: { Location: expect.objectContaining({ schema: expect.objectContaining({ type: 'string' }) }) },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
    });
    expect(operation.parameters).toEqual([
      expect.objectContaining({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
      }),
    ]);
    expect(Object.keys(operation.responses['201'].headers).sort()).toEqual([
      'Idempotent-Replayed',
      'Location',
      ...RATE_LIMIT_HEADERS,
      'X-Request-Id',
    ]);
    expect(operation.responses).toMatchObject({
      ...errorResponse(409),
      ...errorResponse(422),
      ...errorResponse(400),
      ...errorResponse(401),
      ...errorResponse(413),
      ...errorResponse(415),
      ...errorResponse(429),
      ...errorResponse(500),
    });
  });

  it('gives every error response an example of its own status and a code of that status', () => {
    const examples: Record<string, string> = {};
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
          if (Number(status) < 400) continue;
          const example = response.content['application/json'].example;
          expect(example, `${method} ${path} ${status}`).toEqual({
            code: expect.stringMatching(/^[a-z_]+$/),
            message: expect.any(String),
            status: Number(status),
          });
          examples[`${method} ${path} ${status}`] = example.code;
        }
      }
    }
    expect(examples).toMatchObject({
      'get /pets 400': 'invalid_parameter',
      'get /pets 401': 'invalid_api_key',
      'post /pets 409': 'idempotency_key_in_use',
      'post /pets 422': 'idempotency_key_reused',
      'get /pets/{petId} 404': 'pet_not_found',
      'get /pets/{petId} 503': 'database_unavailable',
    });
  });

  it('gives every operation the answers all of them share, added once by the document builder', () => {
    for (const item of Object.values(document.paths as Record<string, Record<string, any>>)) {
      for (const operation of Object.values(item)) {
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '429', '500', '503']));
        expect(operation.responses['401'].content['application/json'].schema).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
    }
  });

  it('documents X-Request-Id on every response, and RateLimit-* on every one given after the limit is counted', () => {
    for (const item of Object.values(document.paths as Record<string, Record<string, any>>)) {
      for (const operation of Object.values(item)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
          expect(Object.keys(response.headers)).toContain('X-Request-Id');
          const limited = status !== '401';
          for (const header of RATE_LIMIT_HEADERS)
            expect(header in response.headers, `${status} ${header}`).toBe(limited);
        }
      }
    }
  });

  it('describes getPet as deprecated, with an int64 petId, 404 and the deprecation headers', () => {
    const operation = document.paths['/pets/{petId}'].get;
    expect(operation.deprecated).toBe(true);
    expect(operation.parameters).toEqual([
      expect.objectContaining({
        name: 'petId',
        in: 'path',
        required: true,
        schema: { type: 'integer', format: 'int64' },
      }),
    ]);
    for (const response of Object.values(operation.responses) as Array<{ headers: object }>) {
      expect(Object.keys(response.headers)).toEqual(expect.arrayContaining(['Deprecation', 'Link', 'Sunset']));
    }
    expect(Object.keys(operation.responses['200'].headers).sort()).toEqual([
      'Deprecation',
      'Link',
      ...RATE_LIMIT_HEADERS,
      'Sunset',
      'X-Request-Id',
    ]);
    expect(operation.responses['200'].headers).toMatchObject({
      Deprecation: {
        description: 'RFC 9745: when the operation was deprecated.',
        schema: { type: 'string', example: '@1795219200' },
      },
      Sunset: {
        description: 'RFC 8594: when it stops being served.',
        schema: { type: 'string', example: 'Thu, 05 Dec 2030 00:00:00 GMT' },
      },
      Link: {
        description: 'The successor operation.',
        schema: { type: 'string', example: '</v1/pets>; rel="successor-version"' },
      },
    });
    expect(JSON.stringify(document)).not.toContain('x-deprecation');
    expect(operation.responses).toMatchObject({ ...errorResponse(400), ...errorResponse(401), ...errorResponse(404) });
  });

  it('defines PetStatus, NewPet, Pet and Error as the contract does', () => {
    const { PetStatus, NewPet, Pet, Error } = document.components.schemas;
    expect(PetStatus).toEqual({ type: 'string', enum: ['available', 'pending', 'sold'] });
    expect(NewPet.required).toEqual(['name', 'categoryId']);
    // Unknown properties are refused, and so are control characters (Unicode Cc) in a name.
    expect(NewPet.additionalProperties).toBe(false);
    expect(NewPet.properties.name.pattern).toBe(
      '^(?=[\\s\\S]*[\\p{L}\\p{N}\\p{P}\\p{S}])[^\\u0000-\\u001F\\u007F-\\u009F\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069]*$',
    );
    expect(NewPet.properties.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 255 });
    expect(NewPet.properties.categoryId).toMatchObject({
      type: 'integer',
      format: 'int64',
      minimum: -Number.MAX_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
    });
    expect(JSON.stringify(NewPet.properties.status)).toContain('"$ref":"#/components/schemas/PetStatus"');
    expect(JSON.stringify(Pet.properties.status)).toContain('"$ref":"#/components/schemas/PetStatus"');
    expect(Pet.required).toEqual(['id', 'name', 'categoryId']);
    expect(Pet.properties.id).toMatchObject({ type: 'integer', format: 'int64' });
    expect(Error.required).toEqual(['code', 'message', 'status']);
    expect(Error.properties).toMatchObject({
      code: { type: 'string' },
      message: { type: 'string' },
      status: { type: 'integer' },
    });
  });

  it('serves Swagger UI at /docs without a key', async () => {
    const page = await t.http().get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('swagger-ui');
    const init = await t.http().get('/docs/swagger-ui-init.js');
    expect(init.status).toBe(200);
    expect(init.text).toContain('listPets');
  });
});
