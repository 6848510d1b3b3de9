import { UnsupportedMediaTypeException } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Request bodies are JSON in UTF-8, sent as they are: a `Content-Encoding`
 * other than `identity` (a gzip body, or a plain body labelled gzip) and a
 * charset other than UTF-8 are answered 415 rather than parsed as something
 * they are not. Every other media type is refused too (Fastify would also
 * take text/plain). Fastify's own JSON parser does the parsing, with its
 * prototype-poisoning protection.
 */
export function installJsonBodyParser(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const problem = unsupportedEncodingOf(request);
    if (problem) return done(new UnsupportedMediaTypeException(problem), undefined);
    void parse(request, body as string, done);
  });
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
