import { NewPet, isPetId, type Pet } from '../domain/pet';
import { PetNotFoundError } from '../domain/pet.errors';
import { PetRepository } from '../domain/pet.repository';
import { PetStatus } from '../domain/pet-status';
import type { DomainEvents } from '@app/platform/ports';
import { petCreated } from './pet-created.event';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface PetPage {
  pets: Pet[];
  /** The cursor of the next page, when there is one. */
  nextAfter?: bigint;
}

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
    private readonly events: DomainEvents,
  ) {}

  /**
   * One page of pets by ascending id, and the cursor of the next page when
   * more pets match: the id of this page's last pet. Asking for one pet more
   * than the page holds tells whether there is a next page.
   */
  async list(query: { status?: string; limit?: number; after?: bigint } = {}): Promise<PetPage> {
    const limit = Math.min(query.limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    const found = await this.pets.list({
      status: query.status === undefined ? undefined : PetStatus.from(query.status),
      limit: limit + 1,
      after: query.after ?? 0n,
    });
    const pets = found.slice(0, limit);
    return { pets, nextAfter: found.length > limit ? pets[pets.length - 1].id : undefined };
  }

  async create(command: CreatePetCommand): Promise<Pet> {
    const pet = NewPet.create({
      name: command.name,
      categoryId: command.categoryId,
      status: command.status === undefined ? undefined : PetStatus.from(command.status),
    });
    // The pet and its event commit together; a keyed create's transaction takes both in.
    return this.events.publishWith(() => this.pets.add(pet), petCreated);
  }

  async get(id: bigint): Promise<Pet> {
    const pet = isPetId(id) ? await this.pets.findById(id) : undefined;
    if (!pet) throw new PetNotFoundError(id);
    return pet;
  }
}
