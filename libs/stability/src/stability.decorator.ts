import { ApiExtension } from '@nestjs/swagger';

/**
 * How far an operation's contract is settled. A stable operation (the default: no decorator) never breaks within a
 * major version. A `beta` one is complete and supported, and may still change in a minor release, each change a
 * line of the CHANGELOG. An `experimental` one may change or go in any release.
 */
export type StabilityLevel = 'experimental' | 'beta';

/** The OpenAPI extension that carries the level; the document keeps it, and the docs page shows it. */
export const STABILITY_EXTENSION = 'x-stability';

/**
 * Marks an operation `beta` or `experimental`, in one declaration: the OpenAPI document carries the level as
 * `x-stability` and says what it promises in the operation's description (stability.document.ts). A stable operation
 * carries no decorator.
 */
export function Stability(level: StabilityLevel): MethodDecorator {
  return ApiExtension(STABILITY_EXTENSION, level);
}
