import type { __Thing__ } from './__thing-kebab__';

export interface __Thing__Page {
  limit: number;
  /** The id of the last count of the page before; 0 for the first page. */
  after: bigint;
}

/** The read model's table, as the application asks it. */
export abstract class __Thing__Repository {
  /** Counts one more event under `key`, in the transaction of the handler that heard it. */
  abstract add(key: string): Promise<void>;
  abstract findByKey(key: string): Promise<__Thing__ | undefined>;
  /** Counts by ascending id, those above `after`. */
  abstract list(page: __Thing__Page): Promise<__Thing__[]>;
}
