import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The `__things_snake__` table: its model, which the migrations make exactly (test/schema.e2e-spec.ts compares them on
 * both databases). Its int64 columns are read as decimal text (the repository casts them).
 */
@Entity({ name: '__things_snake__' })
export class __Thing__Record {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number | string;

  /** What the events are counted under: an event's name, or what its handler counts by. */
  @Column({ type: 'varchar', length: 200, unique: true })
  key: string;

  @Column({ type: 'bigint' })
  count: number | string;
}
