import type { Pet } from '../../domain/pet';
import type { PetStatusValue } from '../../domain/pet-status';

/** The Pet of the contract. A pet without a status has no `status` property at all. */
export interface PetResponse {
  id: number;
  name: string;
  categoryId: number;
  status?: PetStatusValue;
}

export function toPetResponse(pet: Pet): PetResponse {
  const response: PetResponse = { id: pet.id, name: pet.name, categoryId: pet.categoryId };
  if (pet.status) response.status = pet.status.value;
  return response;
}
