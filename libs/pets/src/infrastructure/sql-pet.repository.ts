import { Injectable } from '@nestjs/common';
import { SqlClient } from '@app/database';
import type { Pet } from '../domain/pet';
import { PetRepository, type PetListQuery } from '../domain/pet.repository';
import { PetMapper } from './pet.mapper';
import type { PetRecord } from './pet.record';

/**
 * Columns as PetRecord names them, so rows map without TypeORM's entity
 * hydration; the int64 ones as decimal text, exact past 2^53 on both drivers.
 * The text is named `id` too, so the statements name the table's column in
 * full (`pets.id`): a bare `id` in ORDER BY would sort the text.
 */
const COLUMNS = 'CAST(id AS TEXT) AS id, name, CAST(category_id AS TEXT) AS "categoryId", status, version';

/**
 * The pets table through TypeORM's DataSource (the platform's SqlClient), with
 * fixed SQL (docs/decisions/0005-sql-on-the-hot-path.md). A save is persisted
 * with the unit of work, which writes it when it commits.
 */
@Injectable()
export class SqlPetRepository extends PetRepository {
  private readonly sql: { insert: string; update: string; byId: string; all: string; byStatus: string };
  /** The status each pet findById() read had in its row: its save is guarded by it too (see `update`). */
  private readonly readStatus = new WeakMap<Pet, string | null>();

  constructor(private readonly db: SqlClient) {
    super();
    const dialect = db.dialect;
    this.sql = {
      insert: dialect.insertReturningId('INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3)'),
      // Guarded by the version it was read at, and by the status it had (a release before this one changes a status
      // without the version): of two writers who read the same pet, exactly one changes it.
      update: dialect.statement(
        'UPDATE pets SET status = $3, version = version + 1 WHERE id = $1 AND version = $2 AND status = $4',
      ),
      byId: dialect.statement(`SELECT ${COLUMNS} FROM pets WHERE pets.id = $1`),
      all: dialect.statement(`SELECT ${COLUMNS} FROM pets WHERE pets.id > $1 ORDER BY pets.id LIMIT $2`),
      // Served by the (status, id) index without a sort, however many pets there are and however deep the page.
      byStatus: dialect.statement(
        `SELECT ${COLUMNS} FROM pets WHERE status = $1 AND pets.id > $2 ORDER BY pets.id LIMIT $3`,
      ),
    };
  }

  // Ids are bound as decimal text, which both databases compare as the integer it spells (and index lookups stay).
  async save(pet: Pet): Promise<void> {
    this.db.persist(pet, () => {
      if (pet.isNew) {
        const { name, categoryId, status } = PetMapper.toRecord(pet);
        return { sql: this.sql.insert, parameters: [name, categoryId, status], inserted: (id) => pet.stored(id, 1) };
      }
      const { id, version } = pet;
      if (!this.readStatus.has(pet))
        throw new Error(`pet ${id} saved without being read by findById(): read it so, then change it`);
      return {
        sql: this.sql.update,
        parameters: [String(id), version, pet.status?.value ?? null, this.readStatus.get(pet)],
        updated: () => pet.stored(id, version + 1),
      };
    });
  }

  /** The pet, read once per unit of work. */
  findById(id: bigint): Promise<Pet | undefined> {
    return this.db.readOnce(`pets:${id}`, async () => {
      const rows = await this.db.read<PetRecord>(this.sql.byId, [String(id)]);
      return rows.length > 0 ? this.restored(rows[0]) : undefined;
    });
  }

  async list({ status, limit, after }: PetListQuery): Promise<Pet[]> {
    const rows = status
      ? await this.db.read<PetRecord>(this.sql.byStatus, [status.value, String(after), limit])
      : await this.db.read<PetRecord>(this.sql.all, [String(after), limit]);
    // Read for a page, not to be changed: kept nowhere (a change reads its pet with findById()).
    return rows.map(PetMapper.toDomain);
  }

  private restored(record: PetRecord): Pet {
    const pet = PetMapper.toDomain(record);
    this.readStatus.set(pet, record.status);
    return pet;
  }
}
