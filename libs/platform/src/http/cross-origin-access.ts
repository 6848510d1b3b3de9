import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * Which other origins' pages may call the API from a browser: a port the cors library provides when CORS_ORIGINS is
 * set; without one, browsers keep their same-origin rule.
 */
export abstract class CrossOriginAccess {
  /** Answers preflights and adds the CORS headers to every answer of `app`. */
  abstract allow(app: NestFastifyApplication): void;
}
