import type { __Thing__ } from './__thing-kebab__';
import { __Thing__Repository, type __Thing__Page } from './__thing-kebab__.repository';

/** The repository port in memory, for the application's unit tests; `stored` is what it holds, by ascending id. */
export class InMemory__Thing__Repository extends __Thing__Repository {
  readonly stored: __Thing__[] = [];

  add(key: string): Promise<void> {
    const at = this.stored.findIndex((__thing__) => __thing__.key === key);
    if (at === -1) this.stored.push({ id: BigInt(this.stored.length + 1), key, count: 1n });
    else this.stored[at] = { ...this.stored[at], count: this.stored[at].count + 1n };
    return Promise.resolve();
  }

  findByKey(key: string): Promise<__Thing__ | undefined> {
    return Promise.resolve(this.stored.find((__thing__) => __thing__.key === key));
  }

  list({ limit, after }: __Thing__Page): Promise<__Thing__[]> {
    return Promise.resolve(this.stored.filter((__thing__) => __thing__.id > after).slice(0, limit));
  }
}
