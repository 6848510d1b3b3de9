import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The `pets` table as TypeORM sees it. PostgreSQL returns bigint columns as
 * strings, hence the wide types: {@link PetMapper} turns them into numbers.
 * The schema itself is made by the migrations, never from this class.
 */
@Entity({ name: 'pets' })
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
}
