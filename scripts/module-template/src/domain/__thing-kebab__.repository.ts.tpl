// <sample>
import type { New__Thing__, __Thing__, __Thing__Changes } from './__thing-kebab__';

/** A page of the list: at most `limit`, after the id `after` (0: from the first), by ascending id. */
export interface __Thing__Page {
  limit: number;
  after: bigint;
}
// </sample>
// <bare>
import type { New__Thing__, __Thing__ } from './__thing-kebab__';
// </bare>

/** The port to the store. An abstract class, so that it is also the DI token. */
export abstract class __Thing__Repository {
  /** Stores the __thing_words__ durably and returns it with its new id. */
  abstract add(__thing__: New__Thing__): Promise<__Thing__>;
  abstract findById(id: bigint): Promise<__Thing__ | undefined>;
// <sample>
  /** __Things__ by ascending id after `after`, at most `limit` (keyset, never OFFSET). */
  abstract list(page: __Thing__Page): Promise<__Thing__[]>;
// <update>
  /** Applies `changes` in one write: the __thing_words__ as it is now, or undefined when none has the id. */
  abstract update(id: bigint, changes: __Thing__Changes): Promise<__Thing__ | undefined>;
// </update>
// <delete>
  /** Removes the __thing_words__: whether there was one with the id. */
  abstract remove(id: bigint): Promise<boolean>;
// </delete>
// </sample>
}
