// <sample>
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../application/__things-kebab__.service';

const LIMIT_RULE = `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`;

/** `GET /v1/__route__?limit=`: a repeated, empty or unknown parameter is invalid, not ignored. */
export class List__Things__Query {
  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  @IsOptional()
  // Only plain decimal digits are read as a number.
  @Transform(({ value }) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value))
  @IsInt({ message: LIMIT_RULE })
  @Min(1, { message: LIMIT_RULE })
  @Max(MAX_PAGE_SIZE, { message: LIMIT_RULE })
  limit?: number = DEFAULT_PAGE_SIZE;
}
// </sample>
