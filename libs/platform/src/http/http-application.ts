import type { DynamicModule, LoggerService, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { MAX_BODY_BYTES } from './http-limits';

/**
 * Creates the Nest application on Fastify with the HTTP settings of the
 * contract. `main.ts` and the e2e tests both call this, so the tests run what
 * production runs.
 */
export async function createHttpApplication(
  rootModule: Type | DynamicModule,
  options: { logger?: LoggerService | false } = {},
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: MAX_BODY_BYTES,
    // Fastify's defaults, stated because the contract depends on them: a body
    // with `__proto__` or `constructor.prototype` is refused, not sanitised.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Fastify would answer requests that arrive while it closes with a 503 of
    // its own shape; they are served instead, each with `Connection: close`.
    return503OnClosing: false,
  });
  // JSON only: every other media type is answered 415 (Fastify would also take text/plain).
  adapter.getInstance().removeContentTypeParser('text/plain');
  return NestFactory.create<NestFastifyApplication>(rootModule, adapter, {
    // Nest would add an urlencoded parser; Fastify's JSON parser is kept instead.
    bodyParser: false,
    abortOnError: false,
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
  });
}
