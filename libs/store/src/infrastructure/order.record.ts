import { Check, Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';

/**
 * The `store_orders` table: its model, which the migrations make exactly (test/schema.e2e-spec.ts compares them on
 * both databases). Its int64 columns are read as decimal text (the repository casts them): the mapper makes them
 * bigints, and the ship date (milliseconds since 1970, UTC) a Date.
 */
@Entity({ name: 'store_orders' })
@Check('CHK_store_orders_status', `"status" IN ('placed', 'approved', 'delivered', 'cancelled')`)
@Check('CHK_store_orders_quantity', `"quantity" BETWEEN 1 AND 100`)
@Index('IDX_store_orders_status_id', ['status', 'id'])
export class OrderRecord {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number | string;

  @Column({ name: 'pet_id', type: 'bigint' })
  petId: number | string;

  @Column({ type: 'integer' })
  quantity: number;

  @Column({ name: 'ship_date', type: 'bigint', nullable: true })
  shipDate: number | string | null;

  @Column({ type: 'varchar', length: 16 })
  status: string;

  /** The row's version: 1 when placed, one more at each step (the repository's save is guarded by it). */
  @VersionColumn({ type: 'integer', default: 1 })
  version: number;
}
