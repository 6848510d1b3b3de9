import { describe, expect, it } from 'vitest';
import { InMemoryPetRepository } from '../domain/in-memory-pet.repository';
import { NewPet } from '../domain/pet';
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
});
