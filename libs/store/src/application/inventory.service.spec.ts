import { describe, expect, it } from 'vitest';
import { InventoryRepository } from '../domain/inventory.repository';
import { InventoryService } from './inventory.service';

/** What the service asks of the inventory, and counts it is given to answer with (the rules are the SQL's). */
class RecordingInventory extends InventoryRepository {
  readonly asked: string[] = [];
  constructor(private readonly current = new Map<string, number>()) {
    super();
  }
  async counts(): Promise<Map<string, number>> {
    return this.current;
  }
  async petAdded(petId: bigint, status: string): Promise<void> {
    this.asked.push(`added ${petId} ${status}`);
  }
  async petMoved(petId: bigint, from: string, to: string): Promise<void> {
    this.asked.push(`moved ${petId} ${from} ${to}`);
  }
}

describe('InventoryService', () => {
  it('adds a created pet at its status, and none without one; moves a changed one', async () => {
    const inventory = new RecordingInventory();
    const service = new InventoryService(inventory);
    await service.petCreated(1n, 'available');
    await service.petCreated(4n, null);
    await service.petStatusChanged(1n, 'available', 'pending');
    expect(inventory.asked).toEqual(['added 1 available', 'moved 1 available pending']);
  });

  it('answers the counts by the name of each status, in the order of the names', async () => {
    const service = new InventoryService(
      new RecordingInventory(
        new Map([
          ['sold', 1],
          ['available', 2],
          ['pending', 0],
        ]),
      ),
    );
    expect(Object.entries(await service.get())).toEqual([
      ['available', 2],
      ['pending', 0],
      ['sold', 1],
    ]);
  });
});
