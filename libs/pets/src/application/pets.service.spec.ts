import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryPetRepository } from '../domain/in-memory-pet.repository';
import { PetNotFoundError } from '../domain/pet.errors';
import { PetStatus } from '../domain/pet-status';
import { RecordingDomainEvents } from '@app/platform/testing';
import { PetsService } from './pets.service';

describe('PetsService', () => {
  let repository: InMemoryPetRepository;
  let events: RecordingDomainEvents;
  let service: PetsService;

  beforeEach(() => {
    repository = new InMemoryPetRepository();
    events = new RecordingDomainEvents();
    service = new PetsService(repository, events);
  });

  it('creates a pet with a status value object, and publishes pets.pet-created with it', async () => {
    const pet = await service.create({ name: 'Rex', categoryId: 3, status: 'pending' });
    expect(pet).toEqual({ id: 1n, name: 'Rex', categoryId: 3n, status: PetStatus.Pending });
    expect(repository.pets).toEqual([pet]);
    expect(events.published).toEqual([
      {
        name: 'pets.pet-created',
        version: 1,
        aggregateId: '1',
        payload: { petId: 1n, name: 'Rex', categoryId: 3n, status: 'pending' },
      },
    ]);
  });

  it('creates a pet without a status', async () => {
    expect(await service.create({ name: 'Rex', categoryId: 3 })).toEqual({
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
    expect(events.published).toEqual([]);
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
    expect(first.pets.map((pet) => pet.id)).toEqual([1n, 2n]);
    expect(first.nextAfter).toBe(2n);
    const last = await service.list({ limit: 2, after: 4n });
    expect(last.pets.map((pet) => pet.id)).toEqual([5n]);
    expect(last.nextAfter).toBeUndefined();
    const sold = await service.list({ limit: 2, status: 'sold' });
    expect(sold).toEqual({ pets: [repository.pets[1], repository.pets[3]], nextAfter: undefined });
  });

  it('gets a pet by id', async () => {
    const pet = await service.create({ name: 'Rex', categoryId: 3 });
    expect(await service.get(pet.id)).toBe(pet);
  });

  it.each([2n, 0n, -1n, 2n ** 63n])('reports pet %s as not found', async (id) => {
    await service.create({ name: 'Rex', categoryId: 3 });
    await expect(service.get(id)).rejects.toThrow(PetNotFoundError);
    await expect(service.get(id)).rejects.toMatchObject({ code: 'pet_not_found', kind: 'not_found' });
  });
});
