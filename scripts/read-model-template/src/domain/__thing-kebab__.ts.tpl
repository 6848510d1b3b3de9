/** The longest key a count is kept under: an event's name, or what a handler counts by. */
export const __THING___KEY_MAX_LENGTH = 200;

/**
 * How many of the events counted under `key` the read model has heard: each once, after its publisher's commit.
 * `id` orders the counts by when their key was first heard, the cursor of a page.
 */
export interface __Thing__ {
  readonly id: bigint;
  readonly key: string;
  readonly count: bigint;
}
