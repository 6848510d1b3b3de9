import type { Type } from '@nestjs/common';
import type { MigrationInterface } from 'typeorm';

/**
 * A module's tables as the module provides them (`DatabaseModule.forFeature()`): the TypeORM entities that model them
 * and the migrations that make them, oldest first. The database runs every module's migrations at start, in one
 * transaction, in the order of their timestamps.
 */
export class ModuleTables {
  constructor(
    readonly entities: readonly Type[],
    readonly migrations: ReadonlyArray<Type<MigrationInterface>>,
  ) {}

  /** Every module's, from the application's providers: value providers, known before any provider is created. */
  static of(providers: Iterable<{ instance: unknown }>): {
    entities: Type[];
    migrations: Array<Type<MigrationInterface>>;
  } {
    const tables = [...providers].flatMap(({ instance }) => (instance instanceof ModuleTables ? [instance] : []));
    return { entities: tables.flatMap((t) => t.entities), migrations: tables.flatMap((t) => t.migrations) };
  }
}
