import type { DomainEvent, NewDomainEvent } from '@app/platform/domain';
import type { Pet } from './pet';
import type { PetStatusValue } from './pet-status';

/**
 * A pet was added to the catalogue: published once per pet by every create, keyed or not, and never by a replay of
 * a keyed one. Its aggregate is the pet (`aggregateId` its id as decimal text). A change of the payload's shape is a
 * new version, published beside this one for as long as a subscriber reads it.
 */
export type PetCreated = DomainEvent<
  'pets.pet-created',
  { petId: bigint; name: string; categoryId: bigint; status: PetStatusValue | null }
>;

export function petCreated(pet: Pet): NewDomainEvent<PetCreated> {
  return {
    name: 'pets.pet-created',
    version: 1,
    aggregateId: String(pet.id),
    payload: { petId: pet.id, name: pet.name, categoryId: pet.categoryId, status: pet.status?.value ?? null },
  };
}
