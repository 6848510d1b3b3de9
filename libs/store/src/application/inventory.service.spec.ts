import { describe, expect, it } from 'vitest';
import { InMemoryInventoryRepository } from '../domain/in-memory-inventory.repository';
import { InventoryService } from './inventory.service';

describe('InventoryService', () => {
  it('counts pets by status from their creations and changes', async () => {
    const service = new InventoryService(new InMemoryInventoryRepository());
    await service.petCreated(1n, 'available');
    await service.petCreated(2n, 'available');
    await service.petCreated(3n, 'sold');
    await service.petCreated(4n, null);
    await service.petStatusChanged(1n, 'available', 'pending');
    expect(await service.get()).toEqual({ available: 1, pending: 1, sold: 1 });
    await service.petStatusChanged(1n, 'pending', 'available');
    expect(await service.get()).toEqual({ available: 2, pending: 0, sold: 1 });
  });

  it('counts each pet and change once, whatever order the two subscriptions hear them in', async () => {
    const service = new InventoryService(new InMemoryInventoryRepository());
    // The change is heard before the creation: the pet counts at its new status, and its creation adds nothing.
    await service.petStatusChanged(1n, 'available', 'pending');
    await service.petCreated(1n, 'available');
    // Heard twice (the inventory's seed had it already): once.
    await service.petCreated(2n, 'available');
    await service.petCreated(2n, 'available');
    await service.petStatusChanged(2n, 'available', 'pending');
    await service.petStatusChanged(2n, 'available', 'pending');
    expect(await service.get()).toEqual({ available: 0, pending: 2 });
  });
});
