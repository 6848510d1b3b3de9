import { beforeEach, describe, expect, it } from 'vitest';
import { Pet, type NewPet } from '../domain/pet';
import { PetNotFoundError } from '../domain/pet.errors';
import { PetRepository, type PetListQuery } from '../domain/pet.repository';
import { PetStatus } from '../domain/pet-status';
import { PetsService } from './pets.service';

class InMemoryPetRepository extends PetRepository {
  readonly pets: Pet[] = [];
  readonly queries: PetListQuery[] = [];

  async add(pet: NewPet): Promise<Pet> {
    const stored = Pet.identified(this.pets.length + 1, pet);
    this.pets.push(stored);
    return stored;
  }

  async findById(id: number): Promise<Pet | undefined> {
    return this.pets.find((pet) => pet.id === id);
  }

  async list(query: PetListQuery): Promise<Pet[]> {
    this.queries.push(query);
    return this.pets
      .filter((pet) => (!query.status || pet.status === query.status) && pet.id > query.after)
      .slice(0, query.limit);
  }
}

describe('PetsService', () => {
  let repository: InMemoryPetRepository;
  let service: PetsService;

  beforeEach(() => {
    repository = new InMemoryPetRepository();
    service = new PetsService(repository);
  });

  it('creates a pet with a status value object', async () => {
    const pet = await service.create({ name: 'Rex', categoryId: 3, status: 'pending' });
    expect(pet).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: PetStatus.Pending });
    expect(repository.pets).toEqual([pet]);
  });

  it('creates a pet without a status', async () => {
    expect(await service.create({ name: 'Rex', categoryId: 3 })).toEqual({
      id: 1,
      name: 'Rex',
      categoryId: 3,
      status: undefined,
    });
  });

  it('refuses an unknown status before storing anything', async () => {
    await expect(service.create({ name: 'Rex', categoryId: 3, status: 'lost' })).rejects.toThrow(
      'status must be one of',
    );
    expect(repository.pets).toEqual([]);
  });

  it('asks for one pet more than the page holds, 20 by default, at most 100, filtered by status', async () => {
    await service.list();
    await service.list({ limit: 500 });
    await service.list({ status: 'sold', limit: 5, after: 7 });
    expect(repository.queries).toEqual([
      { status: undefined, limit: 21, after: 0 },
      { status: undefined, limit: 101, after: 0 },
      { status: PetStatus.Sold, limit: 6, after: 7 },
    ]);
  });

  it('gives the cursor of the next page only when more pets match', async () => {
    for (let n = 0; n < 5; n++)
      await service.create({ name: `p${n}`, categoryId: n, status: n % 2 ? 'sold' : 'pending' });
    const first = await service.list({ limit: 2 });
    expect(first.pets.map((pet) => pet.id)).toEqual([1, 2]);
    expect(first.nextAfter).toBe(2);
    const last = await service.list({ limit: 2, after: 4 });
    expect(last.pets.map((pet) => pet.id)).toEqual([5]);
    expect(last.nextAfter).toBeUndefined();
    const sold = await service.list({ limit: 2, status: 'sold' });
    expect(sold).toEqual({ pets: [repository.pets[1], repository.pets[3]], nextAfter: undefined });
  });

  it('gets a pet by id', async () => {
    const pet = await service.create({ name: 'Rex', categoryId: 3 });
    expect(await service.get(pet.id)).toBe(pet);
  });

  it.each([2, 0, -1, 1e20])('reports pet %d as not found', async (id) => {
    await service.create({ name: 'Rex', categoryId: 3 });
    await expect(service.get(id)).rejects.toThrow(PetNotFoundError);
    await expect(service.get(id)).rejects.toMatchObject({ code: 'pet_not_found', kind: 'not_found' });
  });
});
