import { Injectable } from '@nestjs/common';
import { SqlClient } from '@app/database';
import { Pet, type NewPet } from '../domain/pet';
import { PetRepository, type PetListQuery } from '../domain/pet.repository';
import type { PetStatus } from '../domain/pet-status';
import { PetMapper } from './pet.mapper';
import type { PetRecord } from './pet.record';

/**
 * Columns as PetRecord names them, so rows map without TypeORM's entity
 * hydration; the int64 ones as decimal text, exact past 2^53 on both drivers.
 * The text is named `id` too, so the statements name the table's column in
 * full (`pets.id`): a bare `id` in ORDER BY would sort the text.
 */
const COLUMNS = 'CAST(id AS TEXT) AS id, name, CAST(category_id AS TEXT) AS "categoryId", status';

/**
 * The pets table through TypeORM's DataSource (the platform's SqlClient), with
 * fixed SQL (docs/decisions/0005-sql-on-the-hot-path.md).
 */
@Injectable()
export class SqlPetRepository extends PetRepository {
  private readonly sql: { insert: string; byId: string; all: string; byStatus: string; changeStatus: string };

  constructor(private readonly db: SqlClient) {
    super();
    const dialect = db.dialect;
    this.sql = {
      insert: dialect.insertReturningId('INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3)'),
      byId: dialect.statement(`SELECT ${COLUMNS} FROM pets WHERE pets.id = $1`),
      all: dialect.statement(`SELECT ${COLUMNS} FROM pets WHERE pets.id > $1 ORDER BY pets.id LIMIT $2`),
      // Served by the (status, id) index without a sort, however many pets there are and however deep the page.
      byStatus: dialect.statement(
        `SELECT ${COLUMNS} FROM pets WHERE status = $1 AND pets.id > $2 ORDER BY pets.id LIMIT $3`,
      ),
      // Compare and set: the row changes only if it still has the status the caller expects.
      changeStatus: dialect.statement('UPDATE pets SET status = $3 WHERE id = $1 AND status = $2'),
    };
  }

  async add(pet: NewPet): Promise<Pet> {
    const record = PetMapper.toRecord(pet);
    const result = await this.db.write(this.sql.insert, [record.name, record.categoryId, record.status]);
    return Pet.identified(this.db.dialect.insertedId(result), pet);
  }

  // Ids are bound as decimal text, which both databases compare as the integer it spells (and index lookups stay).
  async changeStatus(id: bigint, from: PetStatus, to: PetStatus): Promise<boolean> {
    const { changed } = await this.db.write(this.sql.changeStatus, [String(id), from.value, to.value]);
    return changed === 1;
  }

  async findById(id: bigint): Promise<Pet | undefined> {
    const rows = await this.db.read<PetRecord>(this.sql.byId, [String(id)]);
    return rows.length > 0 ? PetMapper.toDomain(rows[0]) : undefined;
  }

  async list({ status, limit, after }: PetListQuery): Promise<Pet[]> {
    const rows = status
      ? await this.db.read<PetRecord>(this.sql.byStatus, [status.value, String(after), limit])
      : await this.db.read<PetRecord>(this.sql.all, [String(after), limit]);
    return rows.map(PetMapper.toDomain);
  }
}
