import { int64Of } from '@app/database';
import { Pet } from '../domain/pet';
import { PetStatus } from '../domain/pet-status';
import { PetRecord } from './pet.record';

/** Converts between the table's row and the domain, so neither leaks into the other. */
export const PetMapper = {
  toDomain(record: PetRecord): Pet {
    // Read as text (see SqlPetRepository): an int64 past 2^53 is not rounded on the way.
    return Pet.restore(int64Of(record.id), Number(record.version), {
      name: record.name,
      categoryId: int64Of(record.categoryId),
      status: record.status === null ? undefined : PetStatus.from(record.status),
    });
  },

  /** A new pet's columns; its id and version are the database's. */
  toRecord(pet: Pet): Omit<PetRecord, 'id' | 'version'> {
    return { name: pet.name, categoryId: String(pet.categoryId), status: pet.status?.value ?? null };
  },
};
