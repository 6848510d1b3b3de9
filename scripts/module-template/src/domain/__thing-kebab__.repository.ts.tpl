import type { __Thing__ } from './__thing-kebab__';
// <sample>

/** A page of the list: at most `limit`, after the id `after` (0: from the first), by ascending id. */
export interface __Thing__Page {
  limit: number;
  after: bigint;
}
// </sample>

/** The port to the store. An abstract class, so that it is also the DI token. */
export abstract class __Thing__Repository {
  abstract findById(id: bigint): Promise<__Thing__ | undefined>;
  /**
   * Saves the __thing_words__ with the running unit of work: a new one is added (its id given as the unit commits), one
   * read back is written if its row still has the version it was read at, with the events it recorded.
   */
  abstract save(__thing__: __Thing__): Promise<void>;
// <sample>
  /** __Things__ by ascending id after `after`, at most `limit` (keyset, never OFFSET). */
  abstract list(page: __Thing__Page): Promise<__Thing__[]>;
// <delete>
  /** Removes the __thing_words__, in one statement of its own: whether there was one with the id. */
  abstract remove(id: bigint): Promise<boolean>;
// </delete>
// </sample>
}
