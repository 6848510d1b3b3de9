import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * Which other origins' pages may call the API from a browser: a port a capability provides (the cors library, when
 * CORS_ORIGINS is set). Without one, browsers keep to their same-origin rule. The request pipeline installs it after
 * its own first steps (pipeline/request-pipeline.ts).
 */
export abstract class CrossOriginAccess {
  /** Answers preflights and adds the CORS headers to every answer of `app`. */
  abstract allow(app: NestFastifyApplication): void;
}
