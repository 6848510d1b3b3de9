import type { NewPet, Pet } from './pet';
import type { PetStatus } from './pet-status';

export interface PetListQuery {
  status?: PetStatus;
  limit: number;
  /** Only pets with a greater id (0: from the first). */
  after: bigint;
}

/**
 * The port to the pet store. An abstract class rather than an interface so
 * that it is also the DI token: `{ provide: PetRepository, useClass: ... }`.
 */
export abstract class PetRepository {
  /** Stores the pet durably and returns it with its new id. */
  abstract add(pet: NewPet): Promise<Pet>;
  abstract findById(id: bigint): Promise<Pet | undefined>;
  /** Pets by ascending id after `after`, at most `limit`, only those with `status` when given (keyset, never OFFSET). */
  abstract list(query: PetListQuery): Promise<Pet[]>;
  /**
   * Moves the pet from status `from` to `to` if it has `from` now, in one
   * conditional write: true for the one caller that moved it, false for every
   * other (another got there first, or no pet has the id). An invariant kept
   * this way needs no read first, so no transaction to hold the two together.
   */
  abstract changeStatus(id: bigint, from: PetStatus, to: PetStatus): Promise<boolean>;
}
