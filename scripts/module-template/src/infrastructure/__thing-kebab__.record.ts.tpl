// <sample>
import { Check, Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
// </sample>
// <bare>
import { Entity, PrimaryGeneratedColumn } from 'typeorm';
// </bare>

/**
 * The `__things_snake__` table: its model, which the migrations make exactly (test/schema.e2e-spec.ts compares them on
 * both databases). Its int64 id is read as decimal text (the repository casts it): the mapper makes it a bigint.
 */
@Entity({ name: '__things_snake__' })
// <sample>
@Check('CHK___things_snake___status', `"status" IN ('draft', 'active', 'retired')`)
// </sample>
export class __Thing__Record {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number | string;

// <sample>
  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  status: string;
// </sample>
}
