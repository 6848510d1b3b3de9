import { describe, expect, it } from 'vitest';
import { InMemoryUnitOfWork } from '@app/platform/testing';
import { InMemoryPetRepository } from '../domain/in-memory-pet.repository';
import { Pet } from '../domain/pet';
import { PetStatus } from '../domain/pet-status';
import { PetCatalog } from './pet-catalog';

function catalogOf(...pets: Pet[]) {
  const unitOfWork = new InMemoryUnitOfWork();
  const repository = new InMemoryPetRepository(unitOfWork.saved);
  repository.seed(...pets);
  return { catalog: new PetCatalog(repository, unitOfWork), repository, unitOfWork };
}

const changed = (petId: bigint, from: string, to: string) => ({
  name: 'pets.pet-status-changed',
  version: 1,
  aggregateId: String(petId),
  payload: { petId, from, to },
});

describe('PetCatalog', () => {
  it('tells whether a pet exists, and asks the store only for ids a pet can have', async () => {
    const { catalog, repository } = catalogOf(Pet.create({ name: 'Rex', categoryId: 1 }));
    expect(await catalog.exists(1n)).toBe(true);
    expect(await catalog.exists(2n)).toBe(false);
    expect(await catalog.exists(0n)).toBe(false);
    expect(await catalog.exists(-1n)).toBe(false);
    expect(await catalog.exists(2n ** 63n)).toBe(false);
    expect(repository.lookedUp).toEqual([1n, 2n]);
  });

  it('reserves an available pet once, gives it back, sells a reserved one, and publishes each change once', async () => {
    const { catalog, repository, unitOfWork } = catalogOf(
      Pet.create({ name: 'Rex', categoryId: 1, status: PetStatus.Available }),
      Pet.create({ name: 'Tom', categoryId: 1, status: PetStatus.Sold }),
      Pet.create({ name: 'Kit', categoryId: 1 }),
    );
    expect([await catalog.reserve(1n), await catalog.reserve(1n)]).toEqual([true, false]);
    expect((await repository.findById(1n))?.status).toBe(PetStatus.Pending);
    // Sold, without a status, no such pet, no id a pet can have: not available.
    expect([await catalog.reserve(2n), await catalog.reserve(3n), await catalog.reserve(4n)]).toEqual([
      false,
      false,
      false,
    ]);
    expect(await catalog.reserve(0n)).toBe(false);
    expect([await catalog.release(1n), await catalog.release(1n)]).toEqual([true, false]);
    expect((await repository.findById(1n))?.status).toBe(PetStatus.Available);
    // Only a reserved pet is sold.
    expect(await catalog.sell(1n)).toBe(false);
    expect([await catalog.reserve(1n), await catalog.sell(1n), await catalog.sell(1n)]).toEqual([true, true, false]);
    expect((await repository.findById(1n))?.status).toBe(PetStatus.Sold);
    expect(unitOfWork.published).toEqual([
      changed(1n, 'available', 'pending'),
      changed(1n, 'pending', 'available'),
      changed(1n, 'available', 'pending'),
      changed(1n, 'pending', 'sold'),
    ]);
  });
});
