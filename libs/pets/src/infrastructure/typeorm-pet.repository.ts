import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Pet, type NewPet } from '../domain/pet';
import { PetRepository, type PetListQuery } from '../domain/pet.repository';
import { PetMapper } from './pet.mapper';
import type { PetRecord } from './pet.record';

/** Columns as PetRecord names them, so rows map without TypeORM's entity hydration. */
const COLUMNS = 'id, name, category_id AS "categoryId", status';

/**
 * The pets table through TypeORM's connection, with SQL written once per
 * dialect. `find()` and the query builder rebuilt and re-parsed the same
 * three statements on every request and hydrated entities we then mapped
 * again: most of the repository's cost (docs/decisions/0005-sql-on-the-hot-path.md).
 */
@Injectable()
export class TypeOrmPetRepository extends PetRepository {
  private readonly sql: ReturnType<typeof statements>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
    this.sql = statements(dataSource.options.type === 'postgres');
  }

  async add(pet: NewPet): Promise<Pet> {
    const record = PetMapper.toRecord(pet);
    const result = await this.dataSource.query(this.sql.insert, [record.name, record.categoryId, record.status]);
    // TypeORM answers an SQLite INSERT with the row id; PostgreSQL with the RETURNING rows.
    const id = Array.isArray(result) ? result[0].id : result;
    return Pet.identified(Number(id), pet);
  }

  async findById(id: number): Promise<Pet | undefined> {
    const rows: PetRecord[] = await this.dataSource.query(this.sql.byId, [id]);
    return rows.length > 0 ? PetMapper.toDomain(rows[0]) : undefined;
  }

  async list({ status, limit }: PetListQuery): Promise<Pet[]> {
    const rows: PetRecord[] = status
      ? await this.dataSource.query(this.sql.byStatus, [status.value, limit])
      : await this.dataSource.query(this.sql.all, [limit]);
    return rows.map(PetMapper.toDomain);
  }
}

function statements(postgres: boolean) {
  const p = (n: number) => (postgres ? `$${n}` : '?');
  return {
    insert: `INSERT INTO pets (name, category_id, status) VALUES (${p(1)}, ${p(2)}, ${p(3)})${postgres ? ' RETURNING id' : ''}`,
    byId: `SELECT ${COLUMNS} FROM pets WHERE id = ${p(1)}`,
    all: `SELECT ${COLUMNS} FROM pets ORDER BY id LIMIT ${p(1)}`,
    // Served by the (status, id) index without a sort, however many pets there are.
    byStatus: `SELECT ${COLUMNS} FROM pets WHERE status = ${p(1)} ORDER BY id LIMIT ${p(2)}`,
  };
}
