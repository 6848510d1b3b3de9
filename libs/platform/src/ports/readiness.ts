import { Injectable } from '@nestjs/common';

/** What keeps the service from serving now, in a few words, or `undefined` when all is well. */
export type ReadinessCheck = () => string | undefined;

/**
 * Something readiness asks on every check, and waits for: whether a dependency can serve now (the database's: a read
 * and a committed write). `name` keys it in the answer.
 */
export interface ReadinessProbe {
  readonly name: string;
  isUp(): Promise<boolean>;
}

/**
 * What makes the service unready besides a shutdown: a check a module adds (auth: whether its keys can be read) or a
 * probe (the database); readiness answers 503 naming the first problem.
 */
@Injectable()
export class Readiness {
  private readonly checks: ReadinessCheck[] = [];
  private readonly probed: ReadinessProbe[] = [];

  add(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  addProbe(probe: ReadinessProbe): void {
    this.probed.push(probe);
  }

  get probes(): readonly ReadinessProbe[] {
    return this.probed;
  }

  problem(): string | undefined {
    for (const check of this.checks) {
      const problem = check();
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
}
