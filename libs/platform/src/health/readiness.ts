import { DiscoveryService } from '@nestjs/core';

/**
 * What a module's provider tells readiness besides a shutdown, marked `@ReadinessCheck()` (found through Nest's
 * `DiscoveryService`): a state it keeps (auth: whether its keys can be read), a dependency asked on every check (the
 * database: a read and a committed write), or both. Readiness answers 503 naming the first problem.
 */
export interface ReadinessCheck {
  /** Keys it in readiness' answer (`database`). */
  readonly name: string;
  /** What keeps the service from serving now, in a few words, or `undefined` when all is well. */
  problem?(): string | undefined;
  /** Whether the dependency can serve now: asked, and waited for, on every check. */
  isUp?(): Promise<boolean>;
}

/** Marks a provider readiness asks (see the interface of the same name). */
export const ReadinessCheck = DiscoveryService.createDecorator<void>();
