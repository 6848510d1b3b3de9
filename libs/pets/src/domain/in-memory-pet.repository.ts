import { Pet } from './pet';
import { PetRepository, type PetListQuery } from './pet.repository';

/**
 * The pet store in memory, for the unit tests of the application layer: one implementation of the port, kept beside
 * it, so that a method added to the port is added here once rather than to a double in every spec. It keeps what it
 * is given, as the table would, and no rule: the rules are the Pet's. `saved` hears each pet saved (the test's
 * InMemoryUnitOfWork, which keeps the events of the units that commit).
 */
export class InMemoryPetRepository extends PetRepository {
  readonly pets: Pet[] = [];
  /** What each call asked for, in order, for a test to check. */
  readonly listed: PetListQuery[] = [];
  readonly lookedUp: bigint[] = [];

  constructor(private readonly saved?: (pet: Pet) => void) {
    super();
  }

  /** Pets already in the catalogue, as a test arranges them (stored, their creation's events forgotten). */
  seed(...pets: Pet[]): void {
    for (const pet of pets) {
      pet.stored(BigInt(this.pets.length + 1), 1);
      pet.clearEvents();
      this.pets.push(this.copyOf(pet));
    }
  }

  async findById(id: bigint): Promise<Pet | undefined> {
    this.lookedUp.push(id);
    const pet = this.pets.find((candidate) => candidate.id === id);
    return pet && this.copyOf(pet);
  }

  async list(query: PetListQuery): Promise<Pet[]> {
    this.listed.push(query);
    return this.pets
      .filter((pet) => (!query.status || pet.status === query.status) && pet.id > query.after)
      .slice(0, query.limit)
      .map((pet) => this.copyOf(pet));
  }

  async save(pet: Pet): Promise<void> {
    if (pet.isNew) pet.stored(BigInt(this.pets.length + 1), 1);
    else pet.stored(pet.id, pet.version + 1);
    const index = this.pets.findIndex((stored) => stored.id === pet.id);
    if (index === -1) this.pets.push(this.copyOf(pet));
    else this.pets[index] = this.copyOf(pet);
    this.saved?.(pet);
  }

  /** A pet as a read gives it: another object, as each read of a table gives one. */
  private copyOf(pet: Pet): Pet {
    return Pet.restore(pet.id, pet.version, pet);
  }
}
