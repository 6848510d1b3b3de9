import { spawnSync } from 'node:child_process';
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv from 'ajv';
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

const INT64_NOTE =
  'An int64: values past 2^53 (9007199254740992) are written with their exact digits, which a JavaScript client reads exactly only with a JSON parser that keeps big integers (JSON.parse rounds them).';
/** 2^63 - 1 as JSON.parse reads it: 2^63 (the served text has the exact digits: tested below). */
const INT64_MAX_AS_DOUBLE = 2 ** 63;
const INT64_SCHEMA = {
  type: 'integer',
  format: 'int64',
  minimum: -(2 ** 63),
  maximum: INT64_MAX_AS_DOUBLE,
  description: INT64_NOTE,
};

/** Whether a Python 3 is on the PATH, to compile the document's patterns with `re`. */
const PYTHON = spawnSync('python3', ['--version']).status === 0;

/** Every value of the property `key`, anywhere in `value`. */
function collect(value: unknown, key: string): unknown[] {
  if (Array.isArray(value)) return value.flatMap((item) => collect(item, key));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, inner]) => [...(name === key ? [inner] : []), ...collect(inner, key)]);
}

/** Every object in the document that states a `format`: the schemas, wherever they sit. */
function schemasOf(value: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(value)) return value.flatMap(schemasOf);
  if (typeof value !== 'object' || value === null) return [];
  const inner = Object.values(value).flatMap(schemasOf);
  return 'format' in value ? [value as Record<string, unknown>, ...inner] : inner;
}

const SCHEME_DESCRIPTION =
  'An API key: `Authorization: Bearer <key>`. Each operation needs the scope its `security` names (also `x-scope`): ' +
  'a key that does not grant it is answered 403 `insufficient_scope`.';

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

  it('states version 1.1.0 and the configured production and staging servers', () => {
    expect(document.info).toMatchObject({ title: 'Pet Store', version: '1.1.0' });
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
        description: SCHEME_DESCRIPTION,
      },
    });
    expect(document.security).toEqual([{ bearer: [] }]);
    // Each operation needs its scope: its area's read for a GET, write for any other method. (A module a test
    // generates adds its own; test/scopes.e2e-spec.ts checks every operation's.)
    const shipped = /^\/(pets|store\/orders|store\/inventory)(\/|$)/;
    const scopes = Object.entries(document.paths)
      .filter(([path]) => shipped.test(path))
      .flatMap(([path, item]) =>
        Object.entries(item as Record<string, { security?: unknown; 'x-scope'?: string; responses: any }>).map(
          ([method, operation]) => {
            expect(operation.security).toEqual([{ bearer: [operation['x-scope']] }]);
            expect(operation.responses['403'].content['application/json'].example.code).toBe('insufficient_scope');
            return `${method.toUpperCase()} ${path} ${operation['x-scope']}`;
          },
        ),
      );
    expect(scopes).toEqual([
      'GET /pets pets:read',
      'POST /pets pets:write',
      'GET /pets/{petId} pets:read',
      'GET /store/orders store:read',
      'POST /store/orders store:write',
      'GET /store/orders/{orderId} store:read',
      'DELETE /store/orders/{orderId} store:write',
      'POST /store/orders/{orderId}/approve store:write',
      'POST /store/orders/{orderId}/deliver store:write',
      'GET /store/inventory store:read',
    ]);
  });

  it('describes listPets: limit 1..100 default 20, the after cursor, the status filter, an array of Pet with Link', () => {
    const operation = document.paths['/pets'].get;
    expect(operation.deprecated).toBeUndefined();
    expect(operation.parameters).toEqual([
      expect.objectContaining({
        name: 'limit',
        in: 'query',
        required: false,
        schema: { type: 'integer', format: 'int32', minimum: 1, maximum: 100, default: 20 },
      }),
      expect.objectContaining({ name: 'after', in: 'query', required: false, schema: INT64_SCHEMA }),
      expect.objectContaining({
        name: 'status',
        in: 'query',
        required: false,
        schema: { $ref: '#/components/schemas/PetStatus' },
      }),
    ]);
    expect(operation.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/Pet' },
      maxItems: 100,
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

  it("lists in each shared answer the codes the core and the capabilities give it, the first capability's as its example", () => {
    const shared = (status: string) => {
      const { description, content } = document.paths['/pets'].get.responses[status];
      return { description, example: content['application/json'].example };
    };
    expect(shared('401')).toEqual({
      description: 'The API key is missing or invalid. Codes: invalid_api_key, missing_api_key.',
      example: { code: 'invalid_api_key', message: 'the API key is not valid', status: 401 },
    });
    // The test app counts no failed authentication (AUTH_FAILURES_PER_MINUTE=0): no too_many_auth_failures.
    expect(shared('429')).toEqual({
      description: 'Too many requests; the code says which limit was reached. Codes: rate_limited.',
      example: {
        code: 'rate_limited',
        message: expect.stringMatching(/^rate limit of \d+ requests per minute exceeded; retry in 12 s$/),
        status: 429,
      },
    });
    expect(shared('500')).toEqual({
      description: 'An unexpected failure; its details are logged, not returned. Codes: internal_error.',
      example: { code: 'internal_error', message: 'internal server error', status: 500 },
    });
    expect(shared('503')).toEqual({
      description:
        'The service cannot serve the request right now; the code says why. Codes: database_unavailable, commit_unconfirmed, api_keys_unavailable.',
      example: { code: 'database_unavailable', message: 'the database is unavailable; retry shortly', status: 503 },
    });
  });

  it('documents X-Request-Id on every response, and RateLimit-* on every one given after the limit is counted (not a 401, 413 or 415, answered before the guards)', () => {
    for (const item of Object.values(document.paths as Record<string, Record<string, any>>)) {
      for (const operation of Object.values(item)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, any>)) {
          expect(Object.keys(response.headers)).toContain('X-Request-Id');
          const limited = !['401', '413', '415'].includes(status);
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
      expect.objectContaining({ name: 'petId', in: 'path', required: true, schema: INT64_SCHEMA }),
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
    expect(NewPet.properties.name).toEqual({
      type: 'string',
      minLength: 1,
      maxLength: 255,
      pattern: '^[^\\x00-\\x1F\\x7F-\\x9F]+$',
      description:
        "The pet's name: 1 to 255 characters (code points) of well-formed Unicode, with at least one letter, digit, punctuation mark or symbol, and none of: control characters (Unicode Cc), bidirectional controls (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), line and paragraph separators (U+2028, U+2029), tag characters (U+E0000 to U+E007F). The pattern states the part of this rule that every regular-expression engine reads alike.",
      example: 'Rex',
    });
    expect(NewPet.properties.categoryId).toEqual({
      ...INT64_SCHEMA,
      description: `Identifier of the category the pet belongs to: any int64, never rounded. ${INT64_NOTE}`,
      example: 3,
    });
    expect(Pet.properties.categoryId).toEqual({ ...INT64_SCHEMA, example: 3 });
    expect(JSON.stringify(NewPet.properties.status)).toContain('"$ref":"#/components/schemas/PetStatus"');
    expect(JSON.stringify(Pet.properties.status)).toContain('"$ref":"#/components/schemas/PetStatus"');
    expect(Pet.required).toEqual(['id', 'name', 'categoryId']);
    expect(Pet.properties.id).toEqual({
      type: 'integer',
      format: 'int64',
      minimum: 1,
      maximum: INT64_MAX_AS_DOUBLE,
      description: `Assigned by the service on creation, from 1 up. ${INT64_NOTE}`,
      example: 1,
    });
    expect(Error.required).toEqual(['code', 'message', 'status']);
    expect(Error.properties).toMatchObject({
      code: { type: 'string' },
      message: { type: 'string' },
      status: { type: 'integer' },
    });
  });

  // A validator outside JavaScript, or without the `u` flag, must compile every pattern and pass the examples.
  const patternCases = () => {
    const name = document.components.schemas.NewPet.properties.name;
    const patterns = collect(document, 'pattern') as string[];
    expect(patterns).toContain(name.pattern);
    // Every pattern against "Rex" (the name's example, and a valid Idempotency-Key), and the name's against a NUL.
    return [
      ...patterns.map((pattern) => ({ pattern, text: 'Rex', matches: true })),
      { pattern: name.pattern, text: 'Re\u0000x', matches: false },
    ];
  };

  it('writes the int64 bounds with their exact digits, which a double cannot hold', async () => {
    const text = (await t.http().get('/v1/openapi.json')).text;
    // Every int64 schema (petId, after, Pet.id, categoryId and whatever a module adds) is bounded, in exact digits.
    const int64s = schemasOf(document).filter((schema) => schema.format === 'int64');
    expect(int64s.length).toBeGreaterThanOrEqual(4);
    for (const schema of int64s) expect(schema.maximum).toBe(INT64_MAX_AS_DOUBLE);
    const negative = int64s.filter((schema) => (schema.minimum as number) < 0);
    expect(text.split('"maximum":9223372036854775807').length - 1).toBe(int64s.length);
    expect(text.split('"minimum":-9223372036854775808').length - 1).toBe(negative.length);
    expect(text).not.toContain('9223372036854776000');
  });

  it('lists the tags its operations use, and describes every operation', () => {
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item as object)) as Array<{
      description?: string;
      tags?: string[];
    }>;
    const used = [...new Set(operations.flatMap((operation) => operation.tags ?? []))].sort();
    expect(used).toContain('pets');
    expect(document.tags).toEqual(used.map((name) => ({ name })));
    for (const operation of operations) expect(operation.description).toEqual(expect.any(String));
  });

  it('states patterns AJV reads without the unicode flag', () => {
    const ajv = new Ajv({ strict: false, unicodeRegExp: false });
    for (const { pattern, text, matches } of patternCases()) {
      expect(ajv.validate({ type: 'string', pattern }, text)).toBe(matches);
    }
  });

  it.skipIf(!PYTHON)(`states patterns Python's re reads${PYTHON ? '' : ' (skipped: no python3 on the PATH)'}`, () => {
    const cases = patternCases();
    const python = spawnSync(
      'python3',
      [
        '-c',
        'import json, re, sys\nprint(json.dumps([re.search(c["pattern"], c["text"]) is not None for c in json.load(sys.stdin)]))',
      ],
      { input: JSON.stringify(cases) },
    );
    expect(python.stderr.toString()).toBe('');
    expect(JSON.parse(python.stdout.toString())).toEqual(cases.map((c) => c.matches));
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
