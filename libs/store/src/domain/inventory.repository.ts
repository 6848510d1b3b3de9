/**
 * The inventory: how many pets have each status, as a read model the store keeps from the pets module's events
 * (decision 0034), so that reading it costs the same at a million pets as at ten. Each change is applied once per
 * pet and change, whatever order the events of two subscriptions arrive in.
 */
export abstract class InventoryRepository {
  /** Pets by status: every status a pet has had, with how many pets have it now. */
  abstract counts(): Promise<Map<string, number>>;
  /** A pet was added with `status` (nothing happens when the inventory knows the pet already). */
  abstract petAdded(petId: bigint, status: string): Promise<void>;
  /** A pet's status moved from `from` to `to` (nothing happens when the inventory has it at another status already). */
  abstract petMoved(petId: bigint, from: string, to: string): Promise<void>;
}
