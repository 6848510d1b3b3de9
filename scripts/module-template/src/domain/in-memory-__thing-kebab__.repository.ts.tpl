// <sample>
import { __Thing__, type New__Thing__, type __Thing__Changes } from './__thing-kebab__';
import { __Thing__Repository, type __Thing__Page } from './__thing-kebab__.repository';
// </sample>
// <bare>
import { __Thing__, type New__Thing__ } from './__thing-kebab__';
import { __Thing__Repository } from './__thing-kebab__.repository';
// </bare>

/**
 * The __thing_words__ store in memory, for the unit tests of the application layer:
 * one implementation of the port, kept beside it, so that a method added to
 * the port is added here once rather than to a double in every spec.
 */
export class InMemory__Thing__Repository extends __Thing__Repository {
  readonly stored: __Thing__[] = [];
  private lastId = 0n;

  async add(__thing__: New__Thing__): Promise<__Thing__> {
    const added = __Thing__.identified(++this.lastId, __thing__);
    this.stored.push(added);
    return added;
  }

  async findById(id: bigint): Promise<__Thing__ | undefined> {
    return this.stored.find((__thing__) => __thing__.id === id);
  }

// <sample>
  async list({ limit, after }: __Thing__Page): Promise<__Thing__[]> {
    return this.stored.filter((__thing__) => __thing__.id > after).slice(0, limit);
  }
// <update>

  async update(id: bigint, changes: __Thing__Changes): Promise<__Thing__ | undefined> {
    const index = this.stored.findIndex((__thing__) => __thing__.id === id);
    if (index === -1) return undefined;
    const { __EACH(__field__)__ } = this.stored[index];
    this.stored[index] = __Thing__.restore(id, { __EACH(__field__: __keep__)__ });
    return this.stored[index];
  }
// </update>
// <delete>

  async remove(id: bigint): Promise<boolean> {
    const index = this.stored.findIndex((__thing__) => __thing__.id === id);
    if (index !== -1) this.stored.splice(index, 1);
    return index !== -1;
  }
// </delete>
// </sample>
}
