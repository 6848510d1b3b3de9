import type { DynamicModule, Type } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';

/** The tables of the whole composition: every part's entities, and every migration, in the composition's order. */
export interface Schema {
  readonly entities: readonly Type[];
  readonly migrations: readonly Type[];
}

/**
 * A library as the application composes it (decision 0028). A capability serves no route of its own: it lends
 * modules a service (the database, idempotency, validation) or acts on every request (authentication, rate limiting,
 * tracing, deprecation). A feature serves routes, under `/v1`. Each library's `index.ts` exports one; the
 * application lists them in one ordered place, its composition.
 */
export interface Part {
  readonly kind: 'capability' | 'feature';
  /** The library's folder under `libs/`. */
  readonly name: string;
  /** Its tables' TypeORM entities: the model of each table, which its migrations make exactly. */
  readonly entities: readonly Type[];
  /** Every `code` its errors carry, so that the error catalogue can be checked. */
  readonly errorCodes: readonly string[];
  /** Reads the library's settings, once (a bad one throws a ConfigError naming the variable), and what they decide. */
  configure(config: AppConfig): ConfiguredPart;
}

export interface Capability extends Part {
  readonly kind: 'capability';
}

export interface Feature extends Part {
  readonly kind: 'feature';
}

/** A part with its settings read. */
export interface ConfiguredPart {
  /** Its migrations, oldest first (TypeORM runs every part's in the order of their timestamps). */
  readonly migrations: readonly Type[];
  /** Its Nest module. The database's is given the schema of the whole composition; the others ignore it. */
  module(schema: Schema): Type | DynamicModule;
}

/** What a library says of itself; `settings` reads its variables, and the other functions are given what it read. */
interface PartDefinition<S> {
  name: string;
  settings?: (config: AppConfig) => S;
  module: (settings: S, schema: Schema) => Type | DynamicModule;
  entities?: readonly Type[];
  migrations?: readonly Type[] | ((settings: S) => readonly Type[]);
  errorCodes?: Readonly<Record<string, string>>;
}

export function defineCapability<S = undefined>(definition: PartDefinition<S>): Capability {
  return partOf('capability', definition);
}

export function defineFeature<S = undefined>(definition: PartDefinition<S>): Feature {
  return partOf('feature', definition);
}

function partOf<K extends Part['kind'], S>(kind: K, definition: PartDefinition<S>): Part & { kind: K } {
  const { name, settings, module, entities = [], migrations = [], errorCodes = {} } = definition;
  return Object.freeze({
    kind,
    name,
    entities,
    errorCodes: Object.values(errorCodes),
    configure(config: AppConfig): ConfiguredPart {
      const read = settings ? settings(config) : (undefined as S);
      return {
        migrations: typeof migrations === 'function' ? migrations(read) : migrations,
        module: (schema) => module(read, schema),
      };
    },
  });
}
