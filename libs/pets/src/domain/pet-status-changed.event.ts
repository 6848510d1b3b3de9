import type { DomainEvent, NewDomainEvent } from '@app/platform/domain';
import type { PetStatusValue } from './pet-status';

/**
 * A pet's status changed (`available` to `pending` when an order reserves it, back when it is released, `pending` to
 * `sold` when it is sold): published in the transaction of the change, once per change. A pet's first status is in
 * `pets.pet-created`. Its aggregate is the pet (`aggregateId` its id as decimal text).
 */
export type PetStatusChanged = DomainEvent<
  'pets.pet-status-changed',
  { petId: bigint; from: PetStatusValue; to: PetStatusValue }
>;

export function petStatusChanged(
  petId: bigint,
  from: PetStatusValue,
  to: PetStatusValue,
): NewDomainEvent<PetStatusChanged> {
  return { name: 'pets.pet-status-changed', version: 1, aggregateId: String(petId), payload: { petId, from, to } };
}
