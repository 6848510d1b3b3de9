// <sample>
import { Invalid__Thing__Error } from './__thing-kebab__.errors';
// <each field>
// <enum>
import { __Thing____Field__ } from './__thing-kebab__-__field-kebab__';
// </enum>
// </each>
// <each field>
// <string>

export const __THING_____FIELD___MAX_LENGTH = __max__;
// </string>
// <int>

export const __THING_____FIELD___MIN = __min__;
export const __THING_____FIELD___MAX = __max__;
// </int>
// </each>
// <update>

/** What a change may set: each field left out keeps its value. */
export interface __Thing__Changes {
// <each field>
  __field__?: __type__;
// </each>
}
// </update>
// <each field>
// <string>

/** The __field__ rule: __min__ to __max__ characters (code points). */
function check__Field__(__field__: string): void {
  const length = [...__field__].length;
  if (__belowMin__length > __THING_____FIELD___MAX_LENGTH) {
    throw new Invalid__Thing__Error(`__field__ must be __min__ to ${__THING_____FIELD___MAX_LENGTH} characters long`);
  }
}
// </string>
// <int>

/** The __field__ rule: an integer from __min__ to __max__. */
function check__Field__(__field__: number): void {
  if (!Number.isInteger(__field__) || __field__ < __THING_____FIELD___MIN || __field__ > __THING_____FIELD___MAX) {
    throw new Invalid__Thing__Error(
      `__field__ must be an integer from ${__THING_____FIELD___MIN} to ${__THING_____FIELD___MAX}`,
    );
  }
}
// </int>
// </each>
// </sample>

/** The largest int64: ids are int64 by contract, kept `bigint`s so that they stay exact past 2^53. */
const INT64_MAX = 2n ** 63n - 1n;

/** __A_thing__ about to be added: its rules are checked, it has no identifier yet. */
export class New__Thing__ {
  private constructor(
// <sample>
// <each field>
    readonly __field__: __type__,
// </each>
// </sample>
  ) {}

// <sample>
  static create({ __EACH(__destructure__)__ }: { __EACH(__param__)__ }): New__Thing__ {
// <each field>
// <string>
    __checkCall__
// </string>
// <int>
    __checkCall__
// </int>
// </each>
    return new New__Thing__(__EACH(__field__)__);
  }
// </sample>
// <bare>
  /** Its fields go here, and their rules (throw an Invalid__Thing__Error, from ./__thing-kebab__.errors, naming the field). */
  static create(): New__Thing__ {
    return new New__Thing__();
  }
// </bare>
}

/** A stored __thing_words__, identified by the id the database assigned: an int64 from 1. */
export class __Thing__ {
  private constructor(
    readonly id: bigint,
// <sample>
// <each field>
    readonly __field__: __type__,
// </each>
// </sample>
  ) {}

  /**
   * The __thing_words__ just added, with the id the database gave it. Nothing is checked here: the row is written, and a
   * refusal now would answer 4xx for __a_thing__ that exists. Every rule was checked by `New__Thing__.create`.
   */
// <sample>
  static identified(id: bigint, __thing__: New__Thing__): __Thing__ {
    return new __Thing__(id, __EACH(__thing__.__field__)__);
  }
// </sample>
// <bare>
  static identified(id: bigint, _new__Thing__: New__Thing__): __Thing__ {
    return new __Thing__(id);
  }
// </bare>

  /** __A_thing__ as the table stored it: its rules were checked when it was written, so they are not checked again. */
// <sample>
  static restore(id: bigint, { __EACH(__field__)__ }: { __EACH(__field__: __type__)__ }): __Thing__ {
    return new __Thing__(id, __EACH(__field__)__);
  }
// <update>

  /** The changes a request asks for, checked before anything is written. */
  static checkChanges(changes: __Thing__Changes): __Thing__Changes {
// <each field>
// <string>
    if (__changeGuard__) check__Field__(changes.__field__);
// </string>
// <int>
    if (__changeGuard__) check__Field__(changes.__field__);
// </int>
// </each>
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

/** Whether `id` can be __a_thing__'s: an int64 from 1 (any other is no __thing_words__'s, without asking the database). */
export function is__Thing__Id(id: bigint): boolean {
  return id >= 1n && id <= INT64_MAX;
}
