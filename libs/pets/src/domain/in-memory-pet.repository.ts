import { Pet, type NewPet } from './pet';
import { PetRepository, type PetListQuery } from './pet.repository';
import type { PetStatus } from './pet-status';

/**
 * The pet store in memory, for the unit tests of the application layer: one
 * implementation of the port, kept beside it, so that a method added to the
 * port is added here once rather than to a double in every spec.
 */
export class InMemoryPetRepository extends PetRepository {
  readonly pets: Pet[] = [];
  /** What each call asked for, in order, for a test to check. */
  readonly listed: PetListQuery[] = [];
  readonly lookedUp: bigint[] = [];

  async add(pet: NewPet): Promise<Pet> {
    const stored = Pet.identified(BigInt(this.pets.length + 1), pet);
    this.pets.push(stored);
    return stored;
  }

  async findById(id: bigint): Promise<Pet | undefined> {
    this.lookedUp.push(id);
    return this.pets.find((pet) => pet.id === id);
  }

  async list(query: PetListQuery): Promise<Pet[]> {
    this.listed.push(query);
    return this.pets
      .filter((pet) => (!query.status || pet.status === query.status) && pet.id > query.after)
      .slice(0, query.limit);
  }

  async changeStatus(id: bigint, from: PetStatus, to: PetStatus): Promise<boolean> {
    const index = this.pets.findIndex((pet) => pet.id === id && pet.status === from);
    if (index === -1) return false;
    const { name, categoryId } = this.pets[index];
    this.pets[index] = Pet.restore(id, { name, categoryId, status: to });
    return true;
  }
}
