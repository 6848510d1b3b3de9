// <sample>
import { New__Thing__, __Thing__, is__Thing__Id } from '../domain/__thing-kebab__';
// </sample>
// <bare>
import { New__Thing__, is__Thing__Id, type __Thing__ } from '../domain/__thing-kebab__';
// </bare>
import { __Thing__NotFoundError } from '../domain/__thing-kebab__.errors';
import type { __Thing__Repository } from '../domain/__thing-kebab__.repository';
// <sample>
// <each field>
// <enum>
import { __Thing____Field__ } from '../domain/__thing-kebab__-__field-kebab__';
// </enum>
// </each>

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface __Things__Page {
  __things__: __Thing__[];
  /** The cursor of the next page, when there is one. */
  nextAfter?: bigint;
}

/** The use cases the controller serves. Domain types in and out; plain TypeScript, built with `new`. */
// </sample>
// <bare>
/** The use cases: add, get. Domain types in and out; plain TypeScript, built with `new`. */
// </bare>
export class __Things__Service {
  constructor(private readonly __things__: __Thing__Repository) {}

// <sample>
  /**
   * One page by ascending id, and the cursor of the next page when more follow: the id of this page's last
   * __thing__. Asking for one more than the page holds tells whether there is a next page.
   */
  async list({ limit = DEFAULT_PAGE_SIZE, after = 0n }: { limit?: number; after?: bigint } = {}): Promise<__Things__Page> {
    const size = Math.min(limit, MAX_PAGE_SIZE);
    const found = await this.__things__.list({ limit: size + 1, after });
    const __things__ = found.slice(0, size);
    return { __things__, nextAfter: found.length > size ? __things__[__things__.length - 1].id : undefined };
  }

  async create(command: { __EACH(__commandParam__)__ }): Promise<__Thing__> {
    const __thing__ = New__Thing__.create({
// <each field>
      __field__: __fromCommand__,
// </each>
    });
    return this.__things__.add(__thing__);
  }
// <update>

  /** Changes the fields given, every rule checked before the one write that applies them. */
  async update(id: bigint, command: { __EACH(__field__?: __changeType__)__ }): Promise<__Thing__> {
    const changes = __Thing__.checkChanges({
// <each field>
      __field__: __changeFromCommand__,
// </each>
    });
    const updated = is__Thing__Id(id) ? await this.__things__.update(id, changes) : undefined;
    if (!updated) throw new __Thing__NotFoundError(id);
    return updated;
  }
// </update>
// <delete>

  async remove(id: bigint): Promise<void> {
    const removed = is__Thing__Id(id) && (await this.__things__.remove(id));
    if (!removed) throw new __Thing__NotFoundError(id);
  }
// </delete>
// </sample>
// <bare>
  async create(): Promise<__Thing__> {
    return this.__things__.add(New__Thing__.create());
  }
// </bare>

  async get(id: bigint): Promise<__Thing__> {
    const __thing__ = is__Thing__Id(id) ? await this.__things__.findById(id) : undefined;
    if (!__thing__) throw new __Thing__NotFoundError(id);
    return __thing__;
  }
}
