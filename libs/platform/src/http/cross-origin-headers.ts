import { Injectable } from '@nestjs/common';

/**
 * The headers CORS lets a browser send and read beyond the core's own: each
 * capability names those it takes and gives (idempotency its
 * `Idempotency-Key` and `Idempotent-Replayed`, rate limiting its
 * `RateLimit-*`), when its module is created, before the first request.
 */
@Injectable()
export class CrossOriginHeaders {
  readonly allowed = new Set<string>();
  readonly exposed = new Set<string>();

  /** Request headers a browser may send. */
  allow(...names: string[]): this {
    for (const name of names) this.allowed.add(name);
    return this;
  }

  /** Answer headers a browser's script may read. */
  expose(...names: string[]): this {
    for (const name of names) this.exposed.add(name);
    return this;
  }
}
