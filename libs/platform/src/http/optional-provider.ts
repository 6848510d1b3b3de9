import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** A port's provider, when a capability provides one. */
export function optionalProvider<T>(
  app: NestFastifyApplication,
  port: abstract new (...args: never[]) => T,
): T | undefined {
  try {
    return app.get(port, { strict: false });
  } catch {
    return undefined;
  }
}
