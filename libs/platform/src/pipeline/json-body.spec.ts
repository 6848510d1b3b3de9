import { describe, expect, it } from 'vitest';
import { withErrorFilter } from '@test/support/fastify-harness';
import { JSON_CONTENT_TYPE } from '../errors/error-body';
import { MAX_JSON_DEPTH, parseJsonBodies } from './json-body';

/** A server that parses bodies as the service does, and echoes what it parsed (a bigint as `<digits>n`). */
function echo() {
  const { fastify } = withErrorFilter();
  parseJsonBodies(fastify);
  fastify.post('/echo', (request) =>
    JSON.stringify(request.body, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value)),
  );
  return (payload: string | Buffer, headers: Record<string, string> = {}) =>
    fastify.inject({
      method: 'POST',
      url: '/echo',
      payload,
      headers: { 'content-type': 'application/json', ...headers },
    });
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('JSON request bodies', () => {
  const post = echo();

  it('are parsed as JSON in UTF-8, whatever the case of the media type and with charset=utf-8', async () => {
    for (const contentType of [
      'application/json',
      'Application/JSON; charset=UTF-8',
      'application/json;charset=utf8',
    ]) {
      const answer = await post('{"name":"Öskar 🐕","tags":["a"]}', { 'content-type': contentType });
      expect(answer.statusCode, contentType).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ name: 'Öskar 🐕', tags: ['a'] });
    }
  });

  it('keep an integer past 2^53 exact, as a bigint, and leave the rest numbers', async () => {
    const answer = await post('{"id":9223372036854775807,"small":12,"big":1e300,"fraction":12345678901234567.5}');
    expect(JSON.parse(answer.body)).toEqual({
      id: '9223372036854775807n',
      small: 12,
      big: 1e300,
      fraction: 12345678901234568,
    });
  });

  it(`take ${MAX_JSON_DEPTH} levels of nesting and refuse one more, before parsing`, async () => {
    expect((await post(nested(MAX_JSON_DEPTH))).statusCode).toBe(200);
    const deeper = await post(nested(MAX_JSON_DEPTH + 1));
    expect(deeper.statusCode).toBe(400);
    expect(deeper.headers['content-type']).toBe(JSON_CONTENT_TYPE);
    expect(deeper.json()).toEqual({
      code: 'invalid_body',
      message: `request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
      status: 400,
    });
    // Brackets inside strings are text, not nesting.
    expect((await post(JSON.stringify({ text: nested(100) }))).statusCode).toBe(200);
  });

  it('refuse an object that gives a key twice, whichever value would win', async () => {
    const answer = await post('{"name":"Rex","name":"Mia"}');
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({
      code: 'malformed_json',
      message: 'request body gives the same key twice in one object',
      status: 400,
    });
    // A colon inside a string is no member.
    expect((await post('{"a":"b:c","d":{"e":"f"}}')).statusCode).toBe(200);
  });

  it('refuse bytes that are not UTF-8', async () => {
    const answer = await post(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]));
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ code: 'malformed_json', message: 'request body is not valid UTF-8', status: 400 });
  });

  it("refuse what is not JSON, and a prototype's key", async () => {
    const broken = await post('{"name":');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({
      code: 'malformed_json',
      message: 'request body is not valid JSON, or uses a forbidden key (__proto__ or constructor.prototype)',
      status: 400,
    });
    expect((await post('{"__proto__":{"admin":true}}')).json()).toEqual(broken.json());
  });

  it('answer 415 to another charset, a compressed body and another media type', async () => {
    const latin1 = await post('{}', { 'content-type': 'application/json; charset=latin1' });
    expect(latin1.statusCode).toBe(415);
    expect(latin1.json()).toEqual({
      code: 'unsupported_media_type',
      message: 'the body must be JSON in UTF-8 (got charset=latin1)',
      status: 415,
    });
    const gzip = await post('{}', { 'content-encoding': 'gzip' });
    expect(gzip.statusCode).toBe(415);
    expect(gzip.json()).toEqual({
      code: 'unsupported_media_type',
      message: 'Content-Encoding gzip is not supported: send the body uncompressed',
      status: 415,
    });
    expect((await post('{}', { 'content-encoding': 'identity' })).statusCode).toBe(200);
    const text = await post('{}', { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toEqual({
      code: 'unsupported_media_type',
      message: 'Content-Type must be application/json',
      status: 415,
    });
  });

  it('refuse a Content-Type that gives a parameter twice', async () => {
    const answer = await post('{}', { 'content-type': 'application/json; charset=utf-8; Charset=latin1' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({
      code: 'bad_request',
      message: 'Content-Type gives its charset parameter twice',
      status: 400,
    });
  });
});
