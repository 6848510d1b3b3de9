import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQuery } from '@app/validation';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../application/pets.service';
import { PET_STATUS_VALUES, type PetStatusValue } from '../../domain/pet-status';

/** `GET /v1/pets?limit=&after=&status=`: a repeated, empty or unknown parameter is invalid, not ignored. */
export class ListPetsQuery extends PageQuery({
  item: 'a pet',
  defaultLimit: DEFAULT_PAGE_SIZE,
  maxLimit: MAX_PAGE_SIZE,
}) {
  @ApiPropertyOptional({ enum: PET_STATUS_VALUES, enumName: 'PetStatus', description: 'Only pets with this status.' })
  @IsOptional()
  @IsIn(PET_STATUS_VALUES, { message: `status must be one of ${PET_STATUS_VALUES.join(', ')}` })
  status?: PetStatusValue;
}
