import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { AppConfig } from '../config/app-config';

/**
 * helmet's security headers, suited to a JSON API that also serves Swagger UI
 * from its own origin. They are the same on every response, so helmet runs
 * once, at startup, into a fixed set of headers that every answer carries:
 * those of the routes (an onRequest hook), and those written below Fastify
 * (the HTTP parser's errors, see edge-responses.ts). @fastify/helmet builds a
 * new helmet middleware and parses the CSP again on every request, 7 % of a
 * list request's CPU (docs/decisions/0007-helmet-built-once.md).
 */
export function securityHeadersOf(config: AppConfig): Readonly<Record<string, string>> {
  const applyHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Swagger UI is also served over plain HTTP in development.
        upgradeInsecureRequests: null,
      },
    },
    strictTransportSecurity: config.nodeEnv === 'production',
  });
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: () => undefined,
  };
  applyHeaders({} as never, response as never, () => undefined);
  return Object.freeze(headers);
}

export function installSecurityHeaders(fastify: FastifyInstance, headers: Readonly<Record<string, string>>): void {
  fastify.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
