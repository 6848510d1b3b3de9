import { Injectable } from '@nestjs/common';

/** What keeps the service from serving now, in a few words, or `undefined` when all is well. */
export type ReadinessCheck = () => string | undefined;

/**
 * What besides the database makes the service unready: a feature module adds
 * a check of its own (the auth module: whether its keys can be read), and
 * readiness answers 503 naming the first problem found.
 */
@Injectable()
export class Readiness {
  private readonly checks: ReadinessCheck[] = [];

  add(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  problem(): string | undefined {
    for (const check of this.checks) {
      const problem = check();
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
}
