import { __Thing__ } from './__thing-kebab__';
// <sample>
import { __Thing__Repository, type __Thing__Page } from './__thing-kebab__.repository';
// </sample>
// <bare>
import { __Thing__Repository } from './__thing-kebab__.repository';
// </bare>

/**
 * The __thing_words__ store in memory, for the unit tests of the application layer: one implementation of the port,
 * kept beside it, so that a method added to the port is added here once rather than to a double in every spec. It
 * keeps what it is given and no rule: the rules are the __Thing__'s. `saved` hears each __thing_words__ saved (the
 * test's InMemoryUnitOfWork, which keeps the events of the units that commit).
 */
export class InMemory__Thing__Repository extends __Thing__Repository {
  readonly stored: __Thing__[] = [];
  private lastId = 0n;

  constructor(private readonly saved?: (__thing__: __Thing__) => void) {
    super();
  }

  async findById(id: bigint): Promise<__Thing__ | undefined> {
    const __thing__ = this.stored.find((candidate) => candidate.id === id);
    return __thing__ && copyOf(__thing__);
  }

  async save(__thing__: __Thing__): Promise<void> {
    if (__thing__.isNew) __thing__.stored(++this.lastId, 1);
    else __thing__.stored(__thing__.id, __thing__.version + 1);
    const index = this.stored.findIndex((candidate) => candidate.id === __thing__.id);
    if (index === -1) this.stored.push(copyOf(__thing__));
    else this.stored[index] = copyOf(__thing__);
    this.saved?.(__thing__);
  }
// <sample>

  async list({ limit, after }: __Thing__Page): Promise<__Thing__[]> {
    return this.stored
      .filter((__thing__) => __thing__.id > after)
      .slice(0, limit)
      .map(copyOf);
  }
// <delete>

  async remove(id: bigint): Promise<boolean> {
    const index = this.stored.findIndex((__thing__) => __thing__.id === id);
    if (index !== -1) this.stored.splice(index, 1);
    return index !== -1;
  }
// </delete>
// </sample>
}

/** __A_thing__ as a read gives it: another object, as each read of a table gives one. */
function copyOf(__thing__: __Thing__): __Thing__ {
// <sample>
  return __Thing__.restore(__thing__.id, __thing__.version, __thing__);
// </sample>
// <bare>
  return __Thing__.restore(__thing__.id, __thing__.version);
// </bare>
}
