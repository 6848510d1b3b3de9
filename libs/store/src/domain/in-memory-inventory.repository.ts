import { InventoryRepository } from './inventory.repository';

/** The inventory in memory, with the rules of the SQL one, for the unit tests of the application layer. */
export class InMemoryInventoryRepository extends InventoryRepository {
  readonly pets = new Map<bigint, string>();
  private readonly byStatus = new Map<string, number>();

  async counts(): Promise<Map<string, number>> {
    return new Map(this.byStatus);
  }

  async petAdded(petId: bigint, status: string): Promise<void> {
    if (this.pets.has(petId)) return;
    this.pets.set(petId, status);
    this.add(status, 1);
  }

  async petMoved(petId: bigint, from: string, to: string): Promise<void> {
    const now = this.pets.get(petId);
    if (now === undefined) return this.petAdded(petId, to);
    if (now !== from) return;
    this.pets.set(petId, to);
    this.add(from, -1);
    this.add(to, 1);
  }

  private add(status: string, by: number): void {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + by);
  }
}
