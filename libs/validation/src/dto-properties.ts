import type { Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';

// What a DTO class declares, and what an input has beyond it: the validation pipe's checks on the raw input.

/**
 * The first property of `value` that the DTO does not declare. Checked on the
 * raw input because class-transformer silently drops some keys (`constructor`)
 * before the whitelist could see them.
 */
export function unknownProperty(value: Record<string, unknown>, known: ReadonlySet<string>): string | undefined {
  for (const key in value) if (!known.has(key)) return key;
  return undefined;
}

/** What a route without a query DTO takes (NoQueryParameters). */
export const NO_PROPERTIES: ReadonlySet<string> = new Set();

/** The types an argument has that are not DTOs, as Nest's own ValidationPipe skips them. */
export const NOT_DTOS: ReadonlySet<unknown> = new Set([String, Boolean, Number, BigInt, Array, Object, Buffer, Date]);

const declared = new WeakMap<Type<unknown>, ReadonlySet<string>>();

/** The properties a DTO class declares, read from class-validator's metadata once per class. */
export function declaredProperties(metatype: Type<unknown>): ReadonlySet<string> {
  let known = declared.get(metatype);
  if (!known) {
    known = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(metatype, '', true, false)
        .map((rule) => rule.propertyName),
    );
    declared.set(metatype, known);
  }
  return known;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
