import { Injectable } from '@nestjs/common';
import { SqlClient } from '@app/database';
import { InventoryRepository } from '../domain/inventory.repository';

/**
 * The inventory's two tables through the platform's SqlClient, in the transaction of the subscription's handler
 * (its writes commit with the subscription's progress: once per event). Each pet's status as heard decides whether a
 * change counts: a change counts once per pet, whichever of the two subscriptions hears its event first. Each
 * subscription counts in rows of its own (`source`), summed when the inventory is read.
 */
@Injectable()
export class SqlInventoryRepository extends InventoryRepository {
  private readonly sql: Record<'counts' | 'addPet' | 'movePet' | 'count', string>;

  constructor(private readonly db: SqlClient) {
    super();
    const { dialect } = db;
    this.sql = {
      counts: dialect.statement(
        'SELECT status, CAST(SUM(pet_count) AS TEXT) AS "petCount" FROM store_inventory GROUP BY status',
      ),
      addPet: dialect.statement(
        'INSERT INTO store_inventory_pets (pet_id, status) VALUES ($1, $2) ON CONFLICT (pet_id) DO NOTHING',
      ),
      movePet: dialect.statement('UPDATE store_inventory_pets SET status = $3 WHERE pet_id = $1 AND status = $2'),
      count: dialect.statement(
        'INSERT INTO store_inventory (status, source, pet_count) VALUES ($1, $3, $2) ' +
          'ON CONFLICT (status, source) DO UPDATE SET pet_count = store_inventory.pet_count + $2',
      ),
    };
  }

  async counts(): Promise<Map<string, number>> {
    const rows = await this.db.read<{ status: string; petCount: string }>(this.sql.counts, []);
    return new Map(rows.map(({ status, petCount }) => [status, Number(petCount)]));
  }

  petAdded(petId: bigint, status: string): Promise<void> {
    return this.add(petId, status, 'created');
  }

  async petMoved(petId: bigint, from: string, to: string): Promise<void> {
    const { changed } = await this.db.write(this.sql.movePet, [String(petId), from, to]);
    if (changed === 1) {
      await this.db.write(this.sql.count, [from, -1, 'changed']);
      await this.db.write(this.sql.count, [to, 1, 'changed']);
    } else {
      // Not heard of at `from`: if the inventory does not know the pet yet (its pets.pet-created is still to come), it
      // is added at `to`, and its creation will count nothing; if it knows it at another status, this change is in it.
      await this.add(petId, to, 'changed');
    }
  }

  /** The pet at `status`, counted in the rows of `source` (the subscription writing), once. */
  private async add(petId: bigint, status: string, source: 'created' | 'changed'): Promise<void> {
    const { changed } = await this.db.write(this.sql.addPet, [String(petId), status]);
    if (changed === 1) await this.db.write(this.sql.count, [status, 1, source]);
  }
}
