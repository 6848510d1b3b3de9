import { Check, Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';

/**
 * The `pets` table: its model, which the migrations make exactly
 * (test/schema.e2e-spec.ts compares them on both databases). Its int64
 * columns are read and bound as decimal text (node-sqlite3 reads integers as
 * doubles, and binds a bigint wrongly), hence the wide types: {@link PetMapper}
 * turns them into bigints.
 */
@Entity({ name: 'pets' })
@Check('pets_status_check', `"status" IN ('available', 'pending', 'sold')`)
@Index('IDX_pets_status_id', ['status', 'id'])
export class PetRecord {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number | string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ name: 'category_id', type: 'bigint' })
  categoryId: number | string;

  @Column({ type: 'varchar', length: 16, nullable: true })
  status: string | null;

  /** The row's version: 1 when added, one more at each change (the repository's save is guarded by it). */
  @VersionColumn({ type: 'integer', default: 1 })
  version: number;
}
