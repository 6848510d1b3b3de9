import { AggregateRoot } from '@app/platform/domain';
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

/**
 * __A_thing__: an aggregate, identified by the id the database assigned (an int64 from 1). Its rules are checked by its
 * factory and its methods, which record its events (`__things-kebab__.__thing-kebab__-created`, ...); its repository
 * saves it with the unit of work, which writes them with it.
 */
export class __Thing__ extends AggregateRoot {
// <sample>
  #state: { __EACH(__field__: __type__)__ };
// </sample>

  private constructor(
    stored: { id: bigint; version: number } | undefined,
// <sample>
    state: { __EACH(__field__: __type__)__ },
// </sample>
  ) {
    super(stored);
// <sample>
    this.#state = state;
// </sample>
  }

// <sample>
  /** A new __thing_words__, its rules checked; it has an id once its unit of work commits. */
  static create({ __EACH(__destructure__)__ }: { __EACH(__param__)__ }): __Thing__ {
// <each field>
// <string>
    __checkCall__
// </string>
// <int>
    __checkCall__
// </int>
// </each>
    const __thing__ = new __Thing__(undefined, { __EACH(__field__)__ });
    __thing__.recordStep('__things-kebab__.__thing-kebab__-created');
    return __thing__;
  }
// </sample>
// <bare>
  /** A new __thing_words__. Its fields go here, and their rules (throw an Invalid__Thing__Error, from ./__thing-kebab__.errors, naming the field). */
  static create(): __Thing__ {
    const __thing__ = new __Thing__(undefined);
    __thing__.recordStep('__things-kebab__.__thing-kebab__-created');
    return __thing__;
  }
// </bare>

  /** __A_thing__ as the table stored it, at its row's version: its rules were checked when it was written. */
// <sample>
  static restore(id: bigint, version: number, { __EACH(__field__)__ }: { __EACH(__field__: __type__)__ }): __Thing__ {
    return new __Thing__({ id, version }, { __EACH(__field__)__ });
  }
// </sample>
// <bare>
  static restore(id: bigint, version: number): __Thing__ {
    return new __Thing__({ id, version });
  }
// </bare>
// <sample>
// <each field>

  get __field__(): __type__ {
    return this.#state.__field__;
  }
// </each>
// <update>

  /** Changes the fields given (each left out keeps its value), every rule checked first; records the change. */
  change(changes: __Thing__Changes): void {
// <each field>
// <string>
    if (__changeGuard__) check__Field__(changes.__field__);
// </string>
// <int>
    if (__changeGuard__) check__Field__(changes.__field__);
// </int>
// </each>
    const { __EACH(__field__)__ } = this.#state;
    this.#state = { __EACH(__field__: __keep__)__ };
    this.recordStep('__things-kebab__.__thing-kebab__-changed');
  }
// </update>
// </sample>

  /** Records an event of its life: its id, made when the unit of work commits (a new one has its id by then). */
  private recordStep(event: string): void {
    this.record(() => ({ name: event, version: 1, aggregateId: String(this.id), payload: { __thing__Id: this.id } }));
  }
}

/** Whether `id` can be __a_thing__'s: an int64 from 1 (any other is no __thing_words__'s, without asking the database). */
export function is__Thing__Id(id: bigint): boolean {
  return id >= 1n && id <= INT64_MAX;
}
