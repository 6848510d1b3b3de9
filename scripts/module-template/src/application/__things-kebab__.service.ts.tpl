import { New__Thing__, is__Thing__Id, type __Thing__ } from '../domain/__thing-kebab__';
import { __Thing__NotFoundError } from '../domain/__thing-kebab__.errors';
import type { __Thing__Repository } from '../domain/__thing-kebab__.repository';
// <sample>
import { __Thing__Status } from '../domain/__thing-kebab__-status';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** The use cases: list, add, get. Domain types in and out; plain TypeScript, built with `new`. */
// </sample>
// <bare>
/** The use cases: add, get. Domain types in and out; plain TypeScript, built with `new`. */
// </bare>
export class __Things__Service {
  constructor(private readonly __things__: __Thing__Repository) {}

// <sample>
  async list(limit = DEFAULT_PAGE_SIZE): Promise<__Thing__[]> {
    return this.__things__.list(Math.min(limit, MAX_PAGE_SIZE));
  }

  async create(command: { name: string; status?: string }): Promise<__Thing__> {
    const __thing__ = New__Thing__.create({
      name: command.name,
      status: command.status === undefined ? undefined : __Thing__Status.from(command.status),
    });
    return this.__things__.add(__thing__);
  }
// </sample>
// <bare>
  async create(): Promise<__Thing__> {
    return this.__things__.add(New__Thing__.create());
  }
// </bare>

  async get(id: number | bigint): Promise<__Thing__> {
    const __thing__ = is__Thing__Id(id) ? await this.__things__.findById(Number(id)) : undefined;
    if (!__thing__) throw new __Thing__NotFoundError(id);
    return __thing__;
  }
}
