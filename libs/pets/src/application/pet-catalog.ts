import type { UnitOfWork } from '@app/platform/ports';
import { isPetId, type Pet } from '../domain/pet';
import { PetRepository } from '../domain/pet.repository';

/**
 * What other modules may ask of the catalogue, and nothing more: a narrow
 * query facade exported from the module's `index.ts`, so that a consumer
 * (say, orders checking that the pet ordered exists) depends on this
 * question, not on the pets service, its entities or its tables. The consumer
 * declares the port it needs in its own domain and adapts this facade to it
 * in its infrastructure (README, "Calls between modules").
 */
export class PetCatalog {
  constructor(
    private readonly pets: PetRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** Whether a pet with this id is in the catalogue. */
  async exists(id: bigint): Promise<boolean> {
    return isPetId(id) && (await this.pets.findById(id)) !== undefined;
  }

  /**
   * Reserves an available pet (available to pending): true for the one caller that reserved it, false when it is
   * not available (taken meanwhile, never available, or no such pet). Inside the consumer's unit of work it commits
   * or is undone with the consumer's own writes (an order placed for it); of two same-tick reservations, one wins.
   */
  reserve(id: bigint): Promise<boolean> {
    return this.change(id, (pet) => pet.reserve());
  }

  /** Gives a reserved pet back (pending to available): true when this call did. */
  release(id: bigint): Promise<boolean> {
    return this.change(id, (pet) => pet.release());
  }

  /** Sells a reserved pet (pending to sold): true when this call did. */
  sell(id: bigint): Promise<boolean> {
    return this.change(id, (pet) => pet.sell());
  }

  /** The pet's change, saved with its event in the caller's unit of work (or one of its own). */
  private change(id: bigint, change: (pet: Pet) => boolean): Promise<boolean> {
    if (!isPetId(id)) return Promise.resolve(false);
    return this.unitOfWork.run(async () => {
      const pet = await this.pets.findById(id);
      if (!pet || !change(pet)) return false;
      await this.pets.save(pet);
      return true;
    });
  }
}
