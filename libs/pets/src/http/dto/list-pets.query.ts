import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../application/pets.service';
import { PET_STATUS_VALUES, type PetStatusValue } from '../../domain/pet-status';

const LIMIT_RULE = `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`;

/** `GET /v1/pets?limit=&status=`: a repeated or empty parameter is invalid, not ignored. */
export class ListPetsQuery {
  /** Page size, default {@link DEFAULT_PAGE_SIZE}. Only plain decimal digits are read as a number. */
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value))
  @IsInt({ message: LIMIT_RULE })
  @Min(1, { message: LIMIT_RULE })
  @Max(MAX_PAGE_SIZE, { message: LIMIT_RULE })
  limit?: number = DEFAULT_PAGE_SIZE;

  @IsOptional()
  @IsIn(PET_STATUS_VALUES, { message: `status must be one of ${PET_STATUS_VALUES.join(', ')}` })
  status?: PetStatusValue;
}
