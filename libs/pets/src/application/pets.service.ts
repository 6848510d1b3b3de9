import { pageOf, type Page, type PageRequest } from '@app/platform/domain';
import type { UnitOfWork } from '@app/platform/ports';
import { Pet, isPetId } from '../domain/pet';
import { PetNotFoundError } from '../domain/pet.errors';
import { PetRepository } from '../domain/pet.repository';
import { PetStatus } from '../domain/pet-status';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface CreatePetCommand {
  name: string;
  /** A number (exact below 2^53) or a bigint, as the request carried it. */
  categoryId: number | bigint;
  status?: string;
}

/**
 * The pet use cases: list, add, get. Domain types in, domain types out; no
 * framework, so a test builds it with `new` (the module provides it by factory).
 */
export class PetsService {
  constructor(
    private readonly pets: PetRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** One page of pets by ascending id, only those with `status` when given, and the cursor of the next page. */
  async list(query: PageRequest & { status?: string } = {}): Promise<Page<Pet>> {
    const status = query.status === undefined ? undefined : PetStatus.from(query.status);
    return pageOf(query, { defaultLimit: DEFAULT_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE }, (slice) =>
      this.pets.list({ status, ...slice }),
    );
  }

  /** Adds a pet: it and its `pets.pet-created` commit together. */
  create(command: CreatePetCommand): Promise<Pet> {
    return this.unitOfWork.run(async () => {
      const pet = Pet.create({
        name: command.name,
        categoryId: command.categoryId,
        status: command.status === undefined ? undefined : PetStatus.from(command.status),
      });
      await this.pets.save(pet);
      return pet;
    });
  }

  async get(id: bigint): Promise<Pet> {
    const pet = isPetId(id) ? await this.pets.findById(id) : undefined;
    if (!pet) throw new PetNotFoundError(id);
    return pet;
  }
}
