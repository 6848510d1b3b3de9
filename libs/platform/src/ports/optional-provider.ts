import { ModuleRef } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * A port's provider, if a module provides one that is not `null` (a module whose settings turn it off provides `null`);
 * the application's own `get()` would log each miss as an error.
 */
export function optionalProvider<T>(
  app: NestFastifyApplication,
  port: abstract new (...args: never[]) => T,
): T | undefined {
  try {
    return app.get(ModuleRef).get(port, { strict: false }) ?? undefined;
  } catch {
    return undefined;
  }
}
