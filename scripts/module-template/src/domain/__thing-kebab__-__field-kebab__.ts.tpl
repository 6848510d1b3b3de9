// <sample>
import { Invalid__Thing__Error } from './__thing-kebab__.errors';

export const __THING___STATUS_VALUES = ['draft', 'active', 'retired'] as const;
export type __Thing__StatusValue = (typeof __THING___STATUS_VALUES)[number];

/** A closed value object: one shared instance per allowed value, and no other can exist. */
export class __Thing__Status {
  static readonly Draft = new __Thing__Status('draft');
  static readonly Active = new __Thing__Status('active');
  static readonly Retired = new __Thing__Status('retired');
  static readonly all: readonly __Thing__Status[] = [__Thing__Status.Draft, __Thing__Status.Active, __Thing__Status.Retired];

  private constructor(readonly value: __Thing__StatusValue) {}

  /** The status named `raw`; anything else is refused with a domain error. */
  static from(raw: string): __Thing__Status {
    const status = __Thing__Status.all.find((candidate) => candidate.value === raw);
    if (!status) throw new Invalid__Thing__Error(`status must be one of ${__THING___STATUS_VALUES.join(', ')}`);
    return status;
  }

  toString(): string {
    return this.value;
  }
}
// </sample>
