import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryUnitOfWork } from '@app/platform/testing';
import { InMemoryPetRepository } from '../domain/in-memory-pet.repository';
import type { Pet } from '../domain/pet';
import { PetNotFoundError } from '../domain/pet.errors';
import { PetStatus } from '../domain/pet-status';
import { PetsService } from './pets.service';

const stateOf = ({ id, name, categoryId, status }: Pet) => ({ id, name, categoryId, status });

describe('PetsService', () => {
  let repository: InMemoryPetRepository;
  let unitOfWork: InMemoryUnitOfWork;
  let service: PetsService;

  beforeEach(() => {
    unitOfWork = new InMemoryUnitOfWork();
    repository = new InMemoryPetRepository(unitOfWork.saved);
    service = new PetsService(repository, unitOfWork);
  });

  it('creates a pet with a status value object in a unit of work, which commits pets.pet-created with it', async () => {
    const pet = await service.create({ name: 'Rex', categoryId: 3, status: 'pending' });
    expect(stateOf(pet)).toEqual({ id: 1n, name: 'Rex', categoryId: 3n, status: PetStatus.Pending });
    expect(repository.pets.map(stateOf)).toEqual([stateOf(pet)]);
    expect(unitOfWork.runs).toBe(1);
    expect(unitOfWork.published).toEqual([
      {
        name: 'pets.pet-created',
        version: 1,
        aggregateId: '1',
        payload: { petId: 1n, name: 'Rex', categoryId: 3n, status: 'pending' },
      },
    ]);
  });

  it('creates a pet without a status', async () => {
    expect(stateOf(await service.create({ name: 'Rex', categoryId: 3 }))).toEqual({
      id: 1n,
      name: 'Rex',
      categoryId: 3n,
      status: undefined,
    });
  });

  it('refuses an unknown status before storing anything', async () => {
    await expect(service.create({ name: 'Rex', categoryId: 3, status: 'lost' })).rejects.toThrow(
      'status must be one of',
    );
    expect(repository.pets).toEqual([]);
    expect(unitOfWork.published).toEqual([]);
  });

  it('asks for one pet more than the page holds, 20 by default, at most 100, filtered by status', async () => {
    await service.list();
    await service.list({ limit: 500 });
    await service.list({ status: 'sold', limit: 5, after: 7n });
    expect(repository.listed).toEqual([
      { status: undefined, limit: 21, after: 0n },
      { status: undefined, limit: 101, after: 0n },
      { status: PetStatus.Sold, limit: 6, after: 7n },
    ]);
  });

  it('gives the cursor of the next page only when more pets match', async () => {
    for (let n = 0; n < 5; n++)
      await service.create({ name: `p${n}`, categoryId: n, status: n % 2 ? 'sold' : 'pending' });
    const first = await service.list({ limit: 2 });
    expect(first.items.map((pet) => pet.id)).toEqual([1n, 2n]);
    expect(first.nextAfter).toBe(2n);
    const last = await service.list({ limit: 2, after: 4n });
    expect(last.items.map((pet) => pet.id)).toEqual([5n]);
    expect(last.nextAfter).toBeUndefined();
    const sold = await service.list({ limit: 2, status: 'sold' });
    expect(sold.items.map(stateOf)).toEqual([stateOf(repository.pets[1]), stateOf(repository.pets[3])]);
    expect(sold.nextAfter).toBeUndefined();
  });

  it('gets a pet by id', async () => {
    const pet = await service.create({ name: 'Rex', categoryId: 3 });
    expect(stateOf(await service.get(pet.id))).toEqual(stateOf(pet));
  });

  it.each([2n, 0n, -1n, 2n ** 63n])('reports pet %s as not found', async (id) => {
    await service.create({ name: 'Rex', categoryId: 3 });
    await expect(service.get(id)).rejects.toThrow(PetNotFoundError);
    await expect(service.get(id)).rejects.toMatchObject({ code: 'pet_not_found', kind: 'not_found' });
  });
});
