// <sample>
import { New__Thing__, __Thing__, is__Thing__Id } from '../domain/__thing-kebab__';
// </sample>
// <bare>
import { New__Thing__, is__Thing__Id, type __Thing__ } from '../domain/__thing-kebab__';
// </bare>
import { __Thing__NotFoundError__EACH:ref(, Unknown__Thing____Ref__Error)__ } from '../domain/__thing-kebab__.errors';
import type { __Thing__Repository } from '../domain/__thing-kebab__.repository';
// <refs>
import type { UnitOfWork } from '@app/platform/ports';
// <each port>
import type { __Port__ } from '../domain/__port-kebab__.port';
// </each>
// </refs>
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
// <no refs>
  constructor(private readonly __things__: __Thing__Repository) {}
// </no refs>
// <refs>
  constructor(
    private readonly __things__: __Thing__Repository,
// <each port>
    private readonly __ref__: __Port__,
// </each>
    private readonly unitOfWork: UnitOfWork,
  ) {}
// </refs>

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
// <no refs>
    return this.__things__.add(__thing__);
// </no refs>
// <refs>
    // What it names is asked in the unit of work that writes it: the check and the write see one state of the data.
    return this.unitOfWork.run(async () => {
// <each field>
// <ref>
// <required>
      await this.check__Field__(__thing__.__field__);
// </required>
// <optional>
      if (__thing__.__field__ !== null) await this.check__Field__(__thing__.__field__);
// </optional>
// </ref>
// </each>
      return this.__things__.add(__thing__);
    });
// </refs>
  }
// <update>

  /** Changes the fields given, every rule checked before the one write that applies them. */
  async update(id: bigint, command: { __EACH(__field__?: __changeType__)__ }): Promise<__Thing__> {
    const changes = __Thing__.checkChanges({
// <each field>
      __field__: __changeFromCommand__,
// </each>
    });
// <no refs>
    const updated = is__Thing__Id(id) ? await this.__things__.update(id, changes) : undefined;
// </no refs>
// <refs>
    const updated = await this.unitOfWork.run(async () => {
// <each field>
// <ref>
      if (changes.__field__ != null) await this.check__Field__(changes.__field__);
// </ref>
// </each>
      return is__Thing__Id(id) ? this.__things__.update(id, changes) : undefined;
    });
// </refs>
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
// <sample>
// <each field>
// <ref>

  /** Refuses a __field__ that names no __ref_words__ (422), asked of __refModule__ through __Port__. */
  private async check__Field__(__field__: bigint): Promise<void> {
    if (!(await this.__ref__.exists(__field__))) throw new Unknown__Thing____Ref__Error(__field__);
  }
// </ref>
// </each>
// </sample>
}
