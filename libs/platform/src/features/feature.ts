import type { Type } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';

/**
 * What a feature module brings to the service: its Nest module, its tables and migrations, its error codes. Each module
 * exports one from its `index.ts`; whatever must know every module (the app module, the database, the README and
 * architecture checks) reads the application's feature registry.
 */
export interface Feature {
  /** The module's folder under `libs/`. */
  readonly name: string;
  readonly module: Type;
  /** Its tables' TypeORM entities: the model of each table, which the migrations make exactly. */
  readonly entities: readonly Type[];
  /** Its migrations, oldest first (TypeORM orders all modules' migrations by their timestamps). */
  readonly migrations: readonly Type[];
  /** Every `code` its errors carry, so the error catalogue can be checked. */
  readonly errorCodes: readonly string[];
  /** Checks the module's own settings before anything starts: throws a ConfigError naming the variable. */
  readonly checkSettings: (config: AppConfig) => void;
}

export function defineFeature(feature: {
  name: string;
  module: Type;
  entities?: readonly Type[];
  migrations?: readonly Type[];
  errorCodes?: Readonly<Record<string, string>>;
  checkSettings?: (config: AppConfig) => void;
}): Feature {
  return Object.freeze({
    name: feature.name,
    module: feature.module,
    entities: feature.entities ?? [],
    migrations: feature.migrations ?? [],
    errorCodes: Object.values(feature.errorCodes ?? {}),
    checkSettings: feature.checkSettings ?? (() => undefined),
  });
}
