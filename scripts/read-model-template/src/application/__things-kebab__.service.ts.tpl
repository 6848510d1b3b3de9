import { __THING___KEY_MAX_LENGTH, type __Thing__ } from '../domain/__thing-kebab__';
import { __Thing__NotFoundError } from '../domain/__thing-kebab__.errors';
import type { __Thing__Repository } from '../domain/__thing-kebab__.repository';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface __Things__Page {
  __things__: __Thing__[];
  /** The cursor of the next page, when there is one. */
  nextAfter?: bigint;
}

/**
 * The read model's use cases: what its handlers count, and what its controller serves. Domain types in and out;
 * plain TypeScript, built with `new`.
 */
export class __Things__Service {
  constructor(private readonly __things__: __Thing__Repository) {}

  /**
   * One more event under `key`. A handler calls it in the transaction the dispatcher runs it in, with the
   * subscription's progress: it counts each event once, and what it writes is undone with a handler that throws.
   */
  async count(key: string): Promise<void> {
    if (key.length === 0 || key.length > __THING___KEY_MAX_LENGTH) {
      throw new RangeError(`a key is 1 to ${__THING___KEY_MAX_LENGTH} characters long: ${JSON.stringify(key)}`);
    }
    await this.__things__.add(key);
  }

  /** One page by ascending id (the order keys were first heard in), and the cursor of the next page. */
  async list({ limit = DEFAULT_PAGE_SIZE, after = 0n }: { limit?: number; after?: bigint } = {}): Promise<__Things__Page> {
    const size = Math.min(limit, MAX_PAGE_SIZE);
    const found = await this.__things__.list({ limit: size + 1, after });
    const __things__ = found.slice(0, size);
    return { __things__, nextAfter: found.length > size ? __things__[__things__.length - 1].id : undefined };
  }

  async get(key: string): Promise<__Thing__> {
    const __thing__ = await this.__things__.findByKey(key);
    if (!__thing__) throw new __Thing__NotFoundError(key);
    return __thing__;
  }
}
