import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * `store_inventory`: how many pets have each status, as the store has heard of them (decision 0034), in one row per
 * status and subscription that counts (`source`: `created`, `changed`), so that the two subscriptions never write one
 * row (on PostgreSQL one would wait for the other and then fail to serialize); a status's count is their sum.
 */
@Entity({ name: 'store_inventory' })
export class InventoryCountRecord {
  @PrimaryColumn({ type: 'varchar', length: 16 })
  status: string;

  @PrimaryColumn({ type: 'varchar', length: 16 })
  source: string;

  @Column({ name: 'pet_count', type: 'bigint' })
  petCount: number | string;
}

/**
 * `store_inventory_pets`: each pet's status as the store has heard of it, so that a change is counted once per pet
 * and change, whatever order two subscriptions hear their events in, and whatever the seed counted already.
 */
@Entity({ name: 'store_inventory_pets' })
export class InventoryPetRecord {
  @PrimaryColumn({ name: 'pet_id', type: 'bigint' })
  petId: number | string;

  @Column({ type: 'varchar', length: 16 })
  status: string;
}
