// <sample>
import { Invalid__Thing__Error } from './__thing-kebab__.errors';
import { __Thing__Status } from './__thing-kebab__-status';

export const __THING___NAME_MAX_LENGTH = 255;
// <update>

/** What a change may set: each field left out keeps its value. */
export interface __Thing__Changes {
  name?: string;
  status?: __Thing__Status;
}
// </update>

/** The name rule: 1 to 255 characters (code points). */
function checkName(name: string): void {
  const length = [...name].length;
  if (length < 1 || length > __THING___NAME_MAX_LENGTH) {
    throw new Invalid__Thing__Error(`name must be 1 to ${__THING___NAME_MAX_LENGTH} characters long`);
  }
}
// </sample>

/** The largest int64: ids are int64 by contract, kept `bigint`s so that they stay exact past 2^53. */
const INT64_MAX = 2n ** 63n - 1n;

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
    checkName(name);
    return new New__Thing__(name, status);
  }
// </sample>
// <bare>
  /** Its fields go here, and their rules (throw an Invalid__Thing__Error, from ./__thing-kebab__.errors, naming the field). */
  static create(): New__Thing__ {
    return new New__Thing__();
  }
// </bare>
}

/** A stored __thing__, identified by the id the database assigned: an int64 from 1. */
export class __Thing__ {
  private constructor(
    readonly id: bigint,
// <sample>
    readonly name: string,
    readonly status: __Thing__Status,
// </sample>
  ) {}

  /**
   * The __thing__ just added, with the id the database gave it. Nothing is checked here: the row is written, and a
   * refusal now would answer 4xx for __a_thing__ that exists. Every rule was checked by `New__Thing__.create`.
   */
// <sample>
  static identified(id: bigint, __thing__: New__Thing__): __Thing__ {
    return new __Thing__(id, __thing__.name, __thing__.status);
  }
// </sample>
// <bare>
  static identified(id: bigint, _new__Thing__: New__Thing__): __Thing__ {
    return new __Thing__(id);
  }
// </bare>

  /** __A_thing__ as the table stored it: its rules were checked when it was written, so they are not checked again. */
// <sample>
  static restore(id: bigint, { name, status }: { name: string; status: __Thing__Status }): __Thing__ {
    return new __Thing__(id, name, status);
  }
// <update>

  /** The changes a request asks for, checked before anything is written. */
  static checkChanges(changes: __Thing__Changes): __Thing__Changes {
    if (changes.name !== undefined) checkName(changes.name);
    return changes;
  }
// </update>
// </sample>
// <bare>
  static restore(id: bigint): __Thing__ {
    return new __Thing__(id);
  }
// </bare>
}

/** Whether `id` can be __a_thing__'s: an int64 from 1 (any other is no __thing__'s, without asking the database). */
export function is__Thing__Id(id: bigint): boolean {
  return id >= 1n && id <= INT64_MAX;
}
