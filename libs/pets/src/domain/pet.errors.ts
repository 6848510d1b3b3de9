import { AppError } from '@app/platform/errors';

export const PET_ERROR_CODES = {
  petNotFound: 'pet_not_found',
  invalidPet: 'invalid_pet',
} as const;

export class PetNotFoundError extends AppError {
  constructor(readonly petId: number | bigint) {
    super('not_found', PET_ERROR_CODES.petNotFound, `pet ${petId} does not exist`);
  }
}

/** A pet that breaks a rule of the domain (name length, category range, status value). */
export class InvalidPetError extends AppError {
  constructor(message: string) {
    super('invalid', PET_ERROR_CODES.invalidPet, message);
  }
}
