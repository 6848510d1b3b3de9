import { describe, expect, it } from 'vitest';
import { InMemoryPetRepository } from '../domain/in-memory-pet.repository';
import { NewPet } from '../domain/pet';
import { PetStatus } from '../domain/pet-status';
import { PetCatalog } from './pet-catalog';

describe('PetCatalog', () => {
  it('tells whether a pet exists, and asks the store only for ids a pet can have', async () => {
    const repository = new InMemoryPetRepository();
    await repository.add(NewPet.create({ name: 'Rex', categoryId: 1 }));
    const catalog = new PetCatalog(repository);
    expect(await catalog.exists(1n)).toBe(true);
    expect(await catalog.exists(2n)).toBe(false);
    expect(await catalog.exists(0n)).toBe(false);
    expect(await catalog.exists(-1n)).toBe(false);
    expect(await catalog.exists(2n ** 63n)).toBe(false);
    expect(repository.lookedUp).toEqual([1n, 2n]);
  });

  it('reserves an available pet once, and gives it back', async () => {
    const repository = new InMemoryPetRepository();
    await repository.add(NewPet.create({ name: 'Rex', categoryId: 1, status: PetStatus.Available }));
    await repository.add(NewPet.create({ name: 'Tom', categoryId: 1, status: PetStatus.Sold }));
    await repository.add(NewPet.create({ name: 'Kit', categoryId: 1 }));
    const catalog = new PetCatalog(repository);
    expect([await catalog.reserve(1n), await catalog.reserve(1n)]).toEqual([true, false]);
    expect((await repository.findById(1n))?.status).toBe(PetStatus.Pending);
    // Sold, without a status, no such pet: not available.
    expect([await catalog.reserve(2n), await catalog.reserve(3n), await catalog.reserve(4n)]).toEqual([
      false,
      false,
      false,
    ]);
    expect([await catalog.release(1n), await catalog.release(1n)]).toEqual([true, false]);
    expect((await repository.findById(1n))?.status).toBe(PetStatus.Available);
  });
});
