import { isUtf8 } from 'node:buffer';
import { UnsupportedMediaTypeException } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error';
import { PLATFORM_ERROR_CODES as CODES } from '../errors/error-catalogue';

/** Deepest nesting of arrays and objects a body may have: the contract's bodies are one level deep. */
export const MAX_JSON_DEPTH = 32;

/**
 * Request bodies are JSON in UTF-8, sent as they are: a `Content-Encoding` other than `identity`, a charset other than
 * UTF-8 and any other media type are answered 415; bytes that are not UTF-8, and a body nested deeper than
 * MAX_JSON_DEPTH, 400 before parsing (the recursive code after the parser would overflow the stack on a few kilobytes
 * of brackets). Fastify's own parser parses, with its prototype-poisoning protection; integers past 2^53 stay exact, as
 * `bigint`s.
 *
 * A request without a body (neither Transfer-Encoding nor a Content-Length above 0: RFC 9112 6.3) is taken as if it
 * sent no Content-Type either, whatever that header says, since there is no content for it to describe: its `body` is
 * `undefined`, so a route that takes no body runs and one that needs a body says it is missing (the validation pipe).
 * Nothing then waits on a stream Node has already ended (`optimizeEmptyRequests`); an empty chunked body has no body
 * too.
 */
export function parseJsonBodies(fastify: FastifyInstance): void {
  fastify.addHook('preParsing', (request, _reply, payload, done) => {
    const { headers } = request;
    if (
      headers['content-type'] !== undefined &&
      headers['transfer-encoding'] === undefined &&
      (headers['content-length'] === undefined || headers['content-length'] === '0')
    ) {
      delete headers['content-type'];
    }
    done(null, payload);
  });
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const repeated = repeatedParameterOf(request.headers['content-type'] ?? '');
    if (repeated) {
      return done(invalid(CODES.badRequest, `Content-Type gives its ${repeated} parameter twice`), undefined);
    }
    const problem = unsupportedEncodingOf(request);
    if (problem) return done(new UnsupportedMediaTypeException(problem), undefined);
    const bytes = body as Buffer;
    if (bytes.length === 0) return done(null, undefined);
    if (!isUtf8(bytes)) return done(invalid(CODES.malformedJson, 'request body is not valid UTF-8'), undefined);
    const shape = shapeOf(bytes);
    if (shape.depth > MAX_JSON_DEPTH) {
      return done(
        invalid(CODES.invalidBody, `request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`),
        undefined,
      );
    }
    const text = bytes.toString('utf8');
    void parse(request, text, (error, body) => {
      if (error) return done(error, body);
      // JSON.parse keeps the last of two equal keys: which one the client meant is anyone's guess (RFC 8259 4).
      if (membersOf(body) < shape.members) {
        return done(invalid(CODES.malformedJson, 'request body gives the same key twice in one object'), undefined);
      }
      done(null, withExactIntegers(text, body));
    });
  });
}

/** A run of 16 digits or more: the only way JSON can write an integer a double does not hold exactly. */
const LONG_DIGITS = /\d{16}/;

/**
 * The body with each integer past 2^53 as a `bigint` of its exact digits, where JSON.parse rounded it. Only a body with
 * such a run of digits is parsed again, with a reviver that reads each number's own text (`context.source`).
 */
function withExactIntegers(text: string, body: unknown): unknown {
  if (!LONG_DIGITS.test(text)) return body;
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && !Number.isSafeInteger(value) && context?.source && /^-?\d+$/.test(context.source)
      ? BigInt(context.source)
      : value,
  );
}

const [QUOTE, BACKSLASH, COLON] = [0x22, 0x5c, 0x3a];
const OPEN = new Set([0x5b, 0x7b]);
const CLOSE = new Set([0x5d, 0x7d]);

/**
 * The deepest nesting of `[` and `{` in JSON text, and how many object members it writes (a `:` outside strings).
 * UTF-8's multi-byte characters are all above 0x7F, so scanning bytes is exact.
 */
function shapeOf(bytes: Buffer): { depth: number; members: number } {
  let depth = 0;
  let deepest = 0;
  let members = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === COLON) members++;
    else if (OPEN.has(byte)) deepest = Math.max(deepest, ++depth);
    else if (CLOSE.has(byte)) depth--;
  }
  return { depth: deepest, members };
}

/** How many members the objects of a parsed body have, all told: fewer than its text wrote when a key was repeated. */
function membersOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) count += membersOf(item);
    return count;
  }
  for (const key in value) count += 1 + membersOf((value as Record<string, unknown>)[key]);
  return count;
}

/** A media-type parameter's name (RFC 9110 5.6.6), at each `;` that starts one. */
const PARAMETER = /;\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=/g;

/** The name of a parameter that `contentType` gives twice (`charset=utf-8; charset=latin1`), if any. */
function repeatedParameterOf(contentType: string): string | undefined {
  if (contentType.indexOf(';') === contentType.lastIndexOf(';')) return undefined;
  const names = new Set<string>();
  for (const [, name] of contentType.matchAll(PARAMETER)) {
    const lower = name.toLowerCase();
    if (names.has(lower)) return lower;
    names.add(lower);
  }
  return undefined;
}

function unsupportedEncodingOf(request: FastifyRequest): string | undefined {
  const encodings = (request.headers['content-encoding'] ?? '')
    .split(',')
    .map((encoding) => encoding.trim().toLowerCase())
    .filter((encoding) => encoding !== '' && encoding !== 'identity');
  if (encodings.length > 0) {
    return `Content-Encoding ${encodings.join(', ')} is not supported: send the body uncompressed`;
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
    return `the body must be JSON in UTF-8 (got charset=${charset})`;
  }
  return undefined;
}

function invalid(code: string, message: string): AppError {
  return new AppError('invalid', code, message);
}
