import type { DynamicModule, Type } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import type { ConfiguredPart, Part, Schema } from './part';

/**
 * The application's parts with their settings read: each part's settings are read here, once, before anything
 * starts, so that a bad variable stops the start with a ConfigError naming it.
 */
export class Composition {
  /** Every part's tables and migrations. */
  readonly schema: Schema;

  private constructor(private readonly parts: ReadonlyArray<{ part: Part; configured: ConfiguredPart }>) {
    this.schema = {
      entities: parts.flatMap(({ part }) => part.entities),
      migrations: parts.flatMap(({ configured }) => configured.migrations),
    };
  }

  static of(parts: readonly Part[], config: AppConfig): Composition {
    return new Composition(parts.map((part) => ({ part, configured: part.configure(config) })));
  }

  /** Every part's Nest module, in the composition's order; and the features' among them, whose routes are under `/v1`. */
  modules(): { all: Array<Type | DynamicModule>; features: Type[] } {
    const all = this.parts.map(({ configured }) => configured.module(this.schema));
    const features = all
      .filter((_, index) => this.parts[index].part.kind === 'feature')
      .map((module) => ('module' in module ? module.module : module));
    return { all, features };
  }
}
