import { ModuleRef } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** A port's provider, if a capability provides one (the application's own `get()` would log each miss as an error). */
export function optionalProvider<T>(
  app: NestFastifyApplication,
  port: abstract new (...args: never[]) => T,
): T | undefined {
  try {
    return app.get(ModuleRef).get(port, { strict: false });
  } catch {
    return undefined;
  }
}
