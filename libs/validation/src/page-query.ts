import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { INT64_RULE, IsInt64, parseInt64 } from './integer-id.pipe';

/** Any int64 is a cursor, exact as written; one below 0 starts at the first item, as 0 does. */
function cursorOf(value: unknown): unknown {
  const id = typeof value === 'string' ? parseInt64(value) : undefined;
  if (id === undefined) return value;
  return id < 0n ? 0n : id;
}

/**
 * The query of a keyset-paged list, `?limit=&after=`: at most `limit` items (1 to `maxLimit`, `defaultLimit` when
 * absent) with an id above `after`, the cursor of the page before. A module's list query extends it and adds its
 * filters (`class ListOrdersQuery extends PageQuery({ item: 'an order', defaultLimit: 20, maxLimit: 100 }) {...}`);
 * the handler reads one item more than `limit`, and answers the cursor of the next page with `setNextPageLink`.
 */
export function PageQuery({ item, defaultLimit, maxLimit }: { item: string; defaultLimit: number; maxLimit: number }) {
  const limitRule = `limit must be an integer from 1 to ${maxLimit}`;
  const afterRule = `after must be ${item} id, ${INT64_RULE}`;

  class Page {
    @ApiPropertyOptional({
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: maxLimit,
      default: defaultLimit,
      description: 'How many to return at most.',
    })
    @IsOptional()
    // Only plain decimal digits are read as a number.
    @Transform(({ value }) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value))
    @IsInt({ message: limitRule })
    @Min(1, { message: limitRule })
    @Max(maxLimit, { message: limitRule })
    limit?: number = defaultLimit;

    @ApiPropertyOptional({
      type: 'integer',
      format: 'int64',
      description:
        'The page cursor: only those with a greater id. Take it from the `Link: <...>; rel="next"` header of the previous page rather than building it.',
    })
    @IsOptional()
    @Transform(({ value }) => cursorOf(value))
    @IsInt64(afterRule)
    after?: bigint;
  }
  return Page;
}
