import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { INT64_RULE, IsInt64, parseInt64 } from '@app/validation';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../application/pets.service';
import { PET_STATUS_VALUES, type PetStatusValue } from '../../domain/pet-status';

const LIMIT_RULE = `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`;
const AFTER_RULE = `after must be a pet id, ${INT64_RULE}`;

/** Any int64 is a cursor, exact as written; one below 0 starts at the first pet, as 0 does. */
function cursorOf(value: unknown): unknown {
  const id = typeof value === 'string' ? parseInt64(value) : undefined;
  if (id === undefined) return value;
  return id < 0n ? 0n : id;
}

/** `GET /v1/pets?limit=&status=&after=`: a repeated, empty or unknown parameter is invalid, not ignored. */
export class ListPetsQuery {
  /** Only plain decimal digits are read as a number. */
  @ApiPropertyOptional({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    description: 'How many pets to return at most.',
  })
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value))
  @IsInt({ message: LIMIT_RULE })
  @Min(1, { message: LIMIT_RULE })
  @Max(MAX_PAGE_SIZE, { message: LIMIT_RULE })
  limit?: number = DEFAULT_PAGE_SIZE;

  @ApiPropertyOptional({ enum: PET_STATUS_VALUES, enumName: 'PetStatus', description: 'Only pets with this status.' })
  @IsOptional()
  @IsIn(PET_STATUS_VALUES, { message: `status must be one of ${PET_STATUS_VALUES.join(', ')}` })
  status?: PetStatusValue;

  @ApiPropertyOptional({
    type: 'integer',
    format: 'int64',
    description:
      'The page cursor: only pets with a greater id. Take it from the `Link: <...>; rel="next"` header of the previous page rather than building it.',
  })
  @IsOptional()
  @Transform(({ value }) => cursorOf(value))
  @IsInt64(AFTER_RULE)
  after?: bigint;
}
