import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Type } from '@nestjs/common';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { ModuleTables } from '@app/database';
import { AppModule } from '../../apps/petstore/src/app.module';

/**
 * The service's tables as its modules provide them (every module's entities and migrations, in the modules' order),
 * read from Nest's module graph without creating any provider: nothing connects, nothing is configured. `features`
 * adds a test's own modules.
 */
export async function serviceTables(...features: Type[]): Promise<ReturnType<typeof ModuleTables.of>> {
  const graph = await NestFactory.createApplicationContext(
    features.length > 0 ? AppModule.withFeatures(...features) : AppModule,
    { preview: true, logger: false },
  );
  try {
    const modules = [...graph.get(ModulesContainer).values()];
    return ModuleTables.of(modules.flatMap((module) => [...module.providers.values()]));
  } finally {
    await graph.close();
  }
}

/**
 * The configuration namespaces of the service's modules (`registerAs()` factories, each reading its variables from
 * the environment), as the modules register them with Nest's ConfigModule, read from the module graph.
 */
export async function configNamespaces(): Promise<Array<() => unknown>> {
  const graph = await NestFactory.createApplicationContext(AppModule, { preview: true, logger: false });
  try {
    const factories = new Set<() => unknown>();
    for (const module of graph.get(ModulesContainer).values()) {
      for (const [token, wrapper] of module.providers) {
        if (typeof token === 'string' && token.startsWith('CONFIGURATION(') && typeof wrapper.metatype === 'function') {
          factories.add(wrapper.metatype as () => unknown);
        }
      }
    }
    return [...factories];
  } finally {
    await graph.close();
  }
}

/** Every `<NAME>_ERROR_CODES` a library's index.ts exports, by library: the codes its errors carry. */
export async function libraryErrorCodes(): Promise<Map<string, string[]>> {
  const codes = new Map<string, string[]>();
  for (const name of readdirSync(resolve(__dirname, '../../libs'))) {
    // Each library by its folder, so that a new one is read without an edit here; a test reading exports, which the
    // layer rules need not follow.
    // eslint-disable-next-line no-restricted-syntax
    const exported = (await import(
      /* @vite-ignore */ resolve(__dirname, '../../libs', name, 'src/index.ts')
    )) as Record<string, unknown>;
    const own = Object.entries(exported)
      .filter(([key]) => key.endsWith('_ERROR_CODES'))
      .flatMap(([, value]) => Object.values(value as Record<string, string>));
    codes.set(name, own);
  }
  return codes;
}
