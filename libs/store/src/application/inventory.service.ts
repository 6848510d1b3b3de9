import type { InventoryRepository } from '../domain/inventory.repository';

/**
 * The inventory: pets by status, a read model kept from the pets module's events (decision 0034). It is exact once
 * the events are handled, which a subscriber does within a second of their commit at ordinary load.
 */
export class InventoryService {
  constructor(private readonly inventory: InventoryRepository) {}

  /** Pets by status, by the status's name, in the order of the names. */
  async get(): Promise<Record<string, number>> {
    const counts = await this.inventory.counts();
    return Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** `pets.pet-created`: a pet without a status is in no count. */
  async petCreated(petId: bigint, status: string | null): Promise<void> {
    if (status !== null) await this.inventory.petAdded(petId, status);
  }

  /** `pets.pet-status-changed`. */
  petStatusChanged(petId: bigint, from: string, to: string): Promise<void> {
    return this.inventory.petMoved(petId, from, to);
  }
}
