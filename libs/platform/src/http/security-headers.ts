import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { AppConfig } from '../config/app-config';

/**
 * helmet's security headers, suited to a JSON API that also serves Swagger UI
 * from its own origin. helmet itself, built once: @fastify/helmet, which wraps
 * it, builds a new helmet middleware (and parses the CSP again) on every
 * request, 7 % of a list request's CPU (docs/decisions/0007-helmet-built-once.md).
 */
export function installSecurityHeaders(fastify: FastifyInstance, config: AppConfig): void {
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
  fastify.addHook('onRequest', (request, reply, done) => {
    applyHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });
}
