/** What a list use case is asked: how many at most, and after which id (keyset paging, never OFFSET). */
export interface PageRequest {
  limit?: number;
  after?: bigint;
}

/** One page, and the cursor of the next page when more match: the id of this page's last item. */
export interface Page<T> {
  items: T[];
  nextAfter?: bigint;
}

/**
 * A page of a list by ascending id, with `read` asked for one item more than the page holds (which tells whether
 * there is a next page): `limit` defaults to `defaultLimit` and is at most `maxLimit`, `after` to 0 (from the first).
 * The one place of a list's arithmetic, for every module's service.
 */
export async function pageOf<T extends { id: bigint }>(
  request: PageRequest,
  bounds: { defaultLimit: number; maxLimit: number },
  read: (slice: { limit: number; after: bigint }) => Promise<T[]>,
): Promise<Page<T>> {
  const limit = Math.min(request.limit ?? bounds.defaultLimit, bounds.maxLimit);
  const found = await read({ limit: limit + 1, after: request.after ?? 0n });
  const items = found.slice(0, limit);
  return { items, nextAfter: found.length > limit ? items[items.length - 1].id : undefined };
}
