import type { OpenAPIObject } from '@nestjs/swagger';
import { operationsOf } from '@app/platform';
import { STABILITY_EXTENSION, type StabilityLevel } from './stability.decorator';

/** What each level promises, as the operation's description begins (the contract document says the same, 1.4). */
export const STABILITY_PROMISES: Readonly<Record<StabilityLevel, string>> = {
  beta:
    '**Beta.** Complete and supported, but it may still change in a minor release of the API; every such change is ' +
    'a line of the CHANGELOG. Stable operations never break within a major version.',
  experimental:
    '**Experimental.** It may change or be removed in any release, with a line of the CHANGELOG; do not build on it ' +
    'anything that cannot change with it.',
};

/** Each operation declared `@Stability()`: its level kept as `x-stability`, and its promise first in its description. */
export function describeStabilities(document: OpenAPIObject): void {
  for (const operation of operationsOf(document)) {
    const level = operation[STABILITY_EXTENSION] as StabilityLevel | undefined;
    if (level === undefined) continue;
    const description = operation.description as string | undefined;
    operation.description = description ? `${STABILITY_PROMISES[level]}\n\n${description}` : STABILITY_PROMISES[level];
  }
}
