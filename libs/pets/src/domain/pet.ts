import { InvalidPetError } from './pet.errors';
import type { PetStatus } from './pet-status';

export const PET_NAME_MAX_LENGTH = 255;

/** The control-character rule as a JSON Schema pattern, for the OpenAPI document. */
export const PET_NAME_PATTERN = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';

export interface PetProps {
  name: string;
  categoryId: number;
  status?: PetStatus;
}

/** A pet about to be added: its rules are checked, it has no identifier yet. */
export class NewPet {
  private constructor(
    readonly name: string,
    readonly categoryId: number,
    readonly status: PetStatus | undefined,
  ) {}

  static create({ name, categoryId, status }: PetProps): NewPet {
    const problem = petNameProblem(name);
    if (problem) throw new InvalidPetError(problem);
    // Category identifiers travel as JSON numbers: only what a double holds exactly is accepted.
    if (!Number.isSafeInteger(categoryId)) {
      throw new InvalidPetError(
        `categoryId must be an integer from ${-Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER}`,
      );
    }
    return new NewPet(name, categoryId, status);
  }
}

/** A pet of the catalogue, identified by the id the database assigned. */
export class Pet {
  private constructor(
    readonly id: number,
    readonly name: string,
    readonly categoryId: number,
    readonly status: PetStatus | undefined,
  ) {}

  static identified(id: number, pet: NewPet): Pet {
    if (!isPetId(id)) throw new InvalidPetError(`a pet id is a positive integer (got ${id})`);
    return new Pet(id, pet.name, pet.categoryId, pet.status);
  }

  /**
   * A pet as the catalogue stored it. Its rules were checked when it was
   * added, and the table keeps them (NOT NULL columns, the status CHECK), so
   * reading it back does not check them again on every row of every page.
   */
  static restore(id: number, { name, categoryId, status }: PetProps): Pet {
    return new Pet(id, name, categoryId, status);
  }
}

/**
 * What is wrong with a pet name, if anything: 1 to 255 characters (code
 * points), well-formed Unicode (a lone surrogate would be stored as U+FFFD,
 * so the pet would not come back as it was sent), no control characters
 * (Unicode category Cc: U+0000-U+001F, U+007F-U+009F; see PET_NAME_PATTERN).
 */
export function petNameProblem(name: string): string | undefined {
  const length = [...name].length;
  if (length < 1 || length > PET_NAME_MAX_LENGTH) return `name must be 1 to ${PET_NAME_MAX_LENGTH} characters long`;
  if (!name.isWellFormed()) return 'name must be well-formed Unicode (no lone surrogates)';
  if (/\p{Cc}/u.test(name)) return 'name must not contain control characters';
  return undefined;
}

/**
 * Ids are positive int64 values assigned by the database, small enough to be
 * kept exact in a JavaScript number (a path may name any int64: a `bigint`).
 */
export function isPetId(id: number | bigint): boolean {
  return typeof id === 'bigint'
    ? id >= 1n && id <= BigInt(Number.MAX_SAFE_INTEGER)
    : Number.isSafeInteger(id) && id >= 1;
}
