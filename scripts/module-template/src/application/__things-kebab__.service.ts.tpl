// <sample>
import { pageOf, type Page, type PageRequest } from '@app/platform/domain';
// </sample>
import type { UnitOfWork } from '@app/platform/ports';
import { __Thing__, is__Thing__Id } from '../domain/__thing-kebab__';
import { __Thing__NotFoundError__EACH:ref(, Unknown__Thing____Ref__Error)__ } from '../domain/__thing-kebab__.errors';
import type { __Thing__Repository } from '../domain/__thing-kebab__.repository';
// <refs>
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

/**
 * The use cases the controller serves, each change one unit of work: the __thing_words__ made or read, changed by its
 * own methods, saved. Domain types in and out; plain TypeScript, built with `new`.
 */
// </sample>
// <bare>
/** The use cases: add (one unit of work), get. Domain types in and out; plain TypeScript, built with `new`. */
// </bare>
export class __Things__Service {
  constructor(
    private readonly __things__: __Thing__Repository,
// <refs>
// <each port>
    private readonly __ref__: __Port__,
// </each>
// </refs>
    private readonly unitOfWork: UnitOfWork,
  ) {}

// <sample>
  /** One page by ascending id, and the cursor of the next page when more follow. */
  list(query: PageRequest = {}): Promise<Page<__Thing__>> {
    return pageOf(query, { defaultLimit: DEFAULT_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE }, (slice) =>
      this.__things__.list(slice),
    );
  }

  /** Adds __a_thing__: it and its event commit together. */
  create(command: { __EACH(__commandParam__)__ }): Promise<__Thing__> {
// <refs>
    // What it names is asked in the unit of work that writes it.
// </refs>
    return this.unitOfWork.run(async () => {
      const __thing__ = __Thing__.create({
// <each field>
        __field__: __fromCommand__,
// </each>
      });
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
      await this.__things__.save(__thing__);
      return __thing__;
    });
  }
// <update>

  /** Changes the fields given, every rule checked by the __thing_words__ before its save. */
  update(id: bigint, command: { __EACH(__field__?: __changeType__)__ }): Promise<__Thing__> {
    return this.unitOfWork.run(async () => {
      const __thing__ = await this.get(id);
      const changes = {
// <each field>
        __field__: __changeFromCommand__,
// </each>
      };
// <each field>
// <ref>
      if (changes.__field__ != null) await this.check__Field__(changes.__field__);
// </ref>
// </each>
      __thing__.change(changes);
      await this.__things__.save(__thing__);
      return __thing__;
    });
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
  /** Adds __a_thing__: it and its event commit together. */
  create(): Promise<__Thing__> {
    return this.unitOfWork.run(async () => {
      const __thing__ = __Thing__.create();
      await this.__things__.save(__thing__);
      return __thing__;
    });
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
