import { describe, expect, it } from 'vitest';
import { NewPet, Pet } from '../domain/pet';
import { PetRepository } from '../domain/pet.repository';
import { PetCatalog } from './pet-catalog';

class OnePetRepository extends PetRepository {
  readonly lookedUp: number[] = [];
  async add(): Promise<Pet> {
    throw new Error('not used');
  }
  async findById(id: number): Promise<Pet | undefined> {
    this.lookedUp.push(id);
    return id === 7 ? Pet.identified(7, NewPet.create({ name: 'Rex', categoryId: 1 })) : undefined;
  }
  async list(): Promise<Pet[]> {
    return [];
  }
}

describe('PetCatalog', () => {
  it('tells whether a pet exists, and asks the store only for ids a pet can have', async () => {
    const repository = new OnePetRepository();
    const catalog = new PetCatalog(repository);
    expect(await catalog.exists(7)).toBe(true);
    expect(await catalog.exists(7n)).toBe(true);
    expect(await catalog.exists(8)).toBe(false);
    expect(await catalog.exists(0)).toBe(false);
    expect(await catalog.exists(2n ** 63n)).toBe(false);
    expect(repository.lookedUp).toEqual([7, 7, 8]);
  });
});
