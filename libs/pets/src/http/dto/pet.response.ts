import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { PET_NAME_MAX_LENGTH, type Pet } from '../../domain/pet';
import { PET_STATUS_VALUES, type PetStatusValue } from '../../domain/pet-status';

/** The Pet of the contract. A pet without a status has no `status` property at all. */
@ApiSchema({ name: 'Pet', description: 'A pet of the catalogue. A pet without a status has no `status` property.' })
export class PetResponse {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 1,
    description: 'Assigned by the service on creation, from 1 up.',
    example: 1,
  })
  id: bigint;

  @ApiProperty({ minLength: 1, maxLength: PET_NAME_MAX_LENGTH, example: 'Rex' })
  name: string;

  @ApiProperty({ type: 'integer', format: 'int64', example: 3 })
  categoryId: bigint;

  @ApiPropertyOptional({ enum: PET_STATUS_VALUES, enumName: 'PetStatus' })
  status?: PetStatusValue;
}

export function toPetResponse(pet: Pet): PetResponse {
  const response: PetResponse = { id: pet.id, name: pet.name, categoryId: pet.categoryId };
  if (pet.status) response.status = pet.status.value;
  return response;
}
