import { Injectable } from '@nestjs/common';
import { DomainEvents } from '@app/platform/ports';
import type { PetCreated, PetStatusChanged } from '@app/pets';
import { InventoryService } from '../application/inventory.service';

/**
 * The inventory's subscriptions to the pets module's events: each handler runs after the publisher's commit, in a
 * transaction with the subscription's progress, so each event counts once (docs/extending.md, "Reacting to another
 * module"). The store's own events are not heard: every change of a pet's status an order makes is published by the
 * pets module in the order's transaction, so hearing both would count it twice. The subscribers' names keep their
 * progress: never rename them.
 */
@Injectable()
export class InventorySubscriptions {
  constructor(events: DomainEvents, inventory: InventoryService) {
    events.subscribe<PetCreated>({
      subscriber: 'store.inventory-on-pet-created',
      event: 'pets.pet-created',
      handle: ({ payload }) => inventory.petCreated(payload.petId, payload.status),
    });
    events.subscribe<PetStatusChanged>({
      subscriber: 'store.inventory-on-pet-status-changed',
      event: 'pets.pet-status-changed',
      handle: ({ payload }) => inventory.petStatusChanged(payload.petId, payload.from, payload.to),
    });
  }
}
