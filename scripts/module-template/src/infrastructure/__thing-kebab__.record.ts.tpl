import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The `__things_snake__` table as TypeORM sees it (PostgreSQL returns bigint
 * columns as strings: the mapper turns them into numbers). The schema itself
 * is made by the migrations, never from this class.
 */
@Entity({ name: '__things_snake__' })
export class __Thing__Record {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number | string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 16 })
  status: string;
}
