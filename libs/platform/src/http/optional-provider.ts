import { ModuleRef } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * A port's provider, when a capability provides one. Looked up through the root module's ModuleRef: the application's
 * own `get()` logs every miss as an error before it throws.
 */
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
