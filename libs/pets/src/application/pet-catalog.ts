import type { DomainEvents, UnitOfWork } from '@app/platform/ports';
import { isPetId } from '../domain/pet';
import { PetRepository } from '../domain/pet.repository';
import { PetStatus } from '../domain/pet-status';
import { petStatusChanged } from './pet-status-changed.event';

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
    private readonly events: DomainEvents,
  ) {}

  /** Whether a pet with this id is in the catalogue. */
  async exists(id: bigint): Promise<boolean> {
    return isPetId(id) && (await this.pets.findById(id)) !== undefined;
  }

  /**
   * Reserves an available pet (available to pending): true for the one caller
   * that reserved it, false when it is not available (taken meanwhile, never
   * available, or no such pet). One conditional write, so two same-tick
   * reservations never both win; inside a UnitOfWork it commits or is undone
   * with the consumer's own writes (an order placed for it).
   */
  reserve(id: bigint): Promise<boolean> {
    return this.change(id, PetStatus.Available, PetStatus.Pending);
  }

  /** Gives a reserved pet back (pending to available): true when this call did. */
  release(id: bigint): Promise<boolean> {
    return this.change(id, PetStatus.Pending, PetStatus.Available);
  }

  /** Sells a reserved pet (pending to sold): true when this call did. */
  sell(id: bigint): Promise<boolean> {
    return this.change(id, PetStatus.Pending, PetStatus.Sold);
  }

  /** The change and its `pets.pet-status-changed`, in the caller's unit of work (or one of their own): both or neither. */
  private change(id: bigint, from: PetStatus, to: PetStatus): Promise<boolean> {
    if (!isPetId(id)) return Promise.resolve(false);
    return this.unitOfWork.run(async () => {
      const changed = await this.pets.changeStatus(id, from, to);
      if (changed) await this.events.publish(petStatusChanged(id, from.value, to.value));
      return changed;
    });
  }
}
