import { __Thing__, type New__Thing__ } from './__thing-kebab__';
import { __Thing__Repository } from './__thing-kebab__.repository';

/**
 * The __thing__ store in memory, for the unit tests of the application layer:
 * one implementation of the port, kept beside it, so that a method added to
 * the port is added here once rather than to a double in every spec.
 */
export class InMemory__Thing__Repository extends __Thing__Repository {
  readonly stored: __Thing__[] = [];

  async add(__thing__: New__Thing__): Promise<__Thing__> {
    const added = __Thing__.identified(this.stored.length + 1, __thing__);
    this.stored.push(added);
    return added;
  }

  async findById(id: number): Promise<__Thing__ | undefined> {
    return this.stored.find((__thing__) => __thing__.id === id);
  }

// <sample>
  async list(limit: number): Promise<__Thing__[]> {
    return this.stored.slice(0, limit);
  }
// </sample>
}
