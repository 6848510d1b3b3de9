// <sample>
import { Invalid__Thing__Error } from './__thing-kebab__.errors';

export const __THING_____FIELD___VALUES = [__VALUES__] as const;
export type __Thing____Field__Value = (typeof __THING_____FIELD___VALUES)[number];

/** A closed value object: one shared instance per allowed value, and no other can exist. */
export class __Thing____Field__ {
// <each value>
  static readonly __Value__ = new __Thing____Field__('__value__');
// </each>
  static readonly all: readonly __Thing____Field__[] = [__valueObjects__];

  private constructor(readonly value: __Thing____Field__Value) {}

  /** The __field__ named `raw`; anything else is refused with a domain error. */
  static from(raw: string): __Thing____Field__ {
    const __field__ = __Thing____Field__.all.find((candidate) => candidate.value === raw);
    if (!__field__) throw new Invalid__Thing__Error(`__field__ must be one of ${__THING_____FIELD___VALUES.join(', ')}`);
    return __field__;
  }

  toString(): string {
    return this.value;
  }
}
// </sample>
