import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { INT64_RULE, IsInt64 } from '@app/validation';
import { IsDefined, IsIn, IsString, ValidateBy, ValidateIf } from 'class-validator';
import { PET_NAME_DESCRIPTION, PET_NAME_MAX_LENGTH, PET_NAME_PATTERN, petNameProblem } from '../../domain/pet';
import { PET_STATUS_VALUES, type PetStatusValue } from '../../domain/pet-status';

/** The domain's own name rule, so that HTTP and domain can never disagree on a name. */
const IsPetName = () =>
  ValidateBy({
    name: 'isPetName',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && petNameProblem(value) === undefined,
      defaultMessage: (args) => petNameProblem(String(args?.value)) ?? 'name is invalid',
    },
  });

const CATEGORY_RULE = `categoryId must be ${INT64_RULE}`;

/** The NewPet body of `POST /v1/pets`. Types are never coerced: `"5"` is not a categoryId. */
@ApiSchema({ name: 'NewPet', description: 'A pet to add. Unknown properties are refused.' })
export class CreatePetDto {
  @ApiProperty({
    minLength: 1,
    maxLength: PET_NAME_MAX_LENGTH,
    pattern: PET_NAME_PATTERN,
    description: PET_NAME_DESCRIPTION,
    example: 'Rex',
  })
  // class-validator checks the lowest decorator first, and stops at the first failure.
  @IsDefined({ message: 'name is required' })
  @IsPetName()
  @IsString({ message: 'name must be a string' })
  name: string;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    description: 'Identifier of the category the pet belongs to: any int64, never rounded.',
    example: 3,
  })
  @IsDefined({ message: 'categoryId is required' })
  @IsInt64(CATEGORY_RULE)
  categoryId: number | bigint;

  /** Optional, but never null: leave it out for "no status". */
  @ApiPropertyOptional({ enum: PET_STATUS_VALUES, enumName: 'PetStatus' })
  @ValidateIf((pet: CreatePetDto) => pet.status !== undefined)
  @IsIn(PET_STATUS_VALUES, { message: `status must be one of ${PET_STATUS_VALUES.join(', ')}` })
  status?: PetStatusValue;
}
