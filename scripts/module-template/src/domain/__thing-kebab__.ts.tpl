import { Invalid__Thing__Error } from './__thing-kebab__.errors';
// <sample>
import { __Thing__Status } from './__thing-kebab__-status';

export const __THING___NAME_MAX_LENGTH = 255;
// </sample>

/** __A_thing__ about to be added: its rules are checked, it has no identifier yet. */
export class New__Thing__ {
  private constructor(
// <sample>
    readonly name: string,
    readonly status: __Thing__Status,
// </sample>
  ) {}

// <sample>
  static create({ name, status = __Thing__Status.Draft }: { name: string; status?: __Thing__Status }): New__Thing__ {
    const length = [...name].length;
    if (length < 1 || length > __THING___NAME_MAX_LENGTH) {
      throw new Invalid__Thing__Error(`name must be 1 to ${__THING___NAME_MAX_LENGTH} characters long`);
    }
    return new New__Thing__(name, status);
  }
// </sample>
// <bare>
  /** Its fields go here, and their rules (throw an Invalid__Thing__Error naming the field). */
  static create(): New__Thing__ {
    return new New__Thing__();
  }
// </bare>
}

/** A stored __thing__, identified by the id the database assigned. */
export class __Thing__ {
  private constructor(
    readonly id: number,
// <sample>
    readonly name: string,
    readonly status: __Thing__Status,
// </sample>
  ) {}

// <sample>
  static identified(id: number, __thing__: New__Thing__): __Thing__ {
// </sample>
// <bare>
  static identified(id: number, _new__Thing__: New__Thing__): __Thing__ {
// </bare>
    if (!is__Thing__Id(id)) throw new Invalid__Thing__Error(`__a_thing__ id is a positive integer (got ${id})`);
// <sample>
    return new __Thing__(id, __thing__.name, __thing__.status);
// </sample>
// <bare>
    return new __Thing__(id);
// </bare>
  }

  /** __A_thing__ as the table stored it: its rules were checked when it was added, so they are not checked again. */
// <sample>
  static restore(id: number, { name, status }: { name: string; status: __Thing__Status }): __Thing__ {
    return new __Thing__(id, name, status);
  }
// </sample>
// <bare>
  static restore(id: number): __Thing__ {
    return new __Thing__(id);
  }
// </bare>
}

/** Ids are positive integers the database assigns; a path may name any int64 (a `bigint`). */
export function is__Thing__Id(id: number | bigint): boolean {
  return typeof id === 'bigint'
    ? id >= 1n && id <= BigInt(Number.MAX_SAFE_INTEGER)
    : Number.isSafeInteger(id) && id >= 1;
}
