import type { New__Thing__, __Thing__ } from './__thing-kebab__';

/** The port to the store. An abstract class, so that it is also the DI token. */
export abstract class __Thing__Repository {
  /** Stores the __thing__ durably and returns it with its new id. */
  abstract add(__thing__: New__Thing__): Promise<__Thing__>;
  abstract findById(id: number): Promise<__Thing__ | undefined>;
// <sample>
  /** __Things__ by ascending id, at most `limit`. */
  abstract list(limit: number): Promise<__Thing__[]>;
// </sample>
}
