import type { Pet } from './pet';
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
  abstract findById(id: bigint): Promise<Pet | undefined>;
  /** Pets by ascending id after `after`, at most `limit`, only those with `status` when given (keyset, never OFFSET). */
  abstract list(query: PetListQuery): Promise<Pet[]>;
  /**
   * Saves the pet with the running unit of work: a new one is added (its id given as the unit commits), one read back
   * is written if its row still has the version it was read at, with the events it recorded.
   */
  abstract save(pet: Pet): Promise<void>;
}
