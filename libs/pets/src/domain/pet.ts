import { InvalidPetError } from './pet.errors';
import type { PetStatus } from './pet-status';

export const PET_NAME_MAX_LENGTH = 255;

/**
 * Bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069):
 * they reorder the text around a name wherever it is shown (a "Trojan Source"
 * name in a list or a log).
 */
const BIDI_CONTROLS = '\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069';
/** Control characters (Unicode Cc). */
const CONTROLS = '\\u0000-\\u001F\\u007F-\\u009F';
/** What can be seen: a letter, a digit, a punctuation mark or a symbol (an emoji is one). */
const VISIBLE = '\\p{L}\\p{N}\\p{P}\\p{S}';

/** The name rule as a JSON Schema pattern (ECMA-262 with the `u` flag), for the OpenAPI document. */
export const PET_NAME_PATTERN = `^(?=[\\s\\S]*[${VISIBLE}])[^${CONTROLS}${BIDI_CONTROLS}]*$`;

const HAS_CONTROL = new RegExp(`[${CONTROLS}]`, 'u');
const HAS_BIDI_CONTROL = new RegExp(`[${BIDI_CONTROLS}]`, 'u');
const HAS_VISIBLE = new RegExp(`[${VISIBLE}]`, 'u');

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
 * (Unicode category Cc) and no bidirectional controls, and at least one
 * character that can be seen: a name of spaces or zero-width characters only
 * would be a blank line in every list (see PET_NAME_PATTERN).
 */
export function petNameProblem(name: string): string | undefined {
  const length = [...name].length;
  if (length < 1 || length > PET_NAME_MAX_LENGTH) return `name must be 1 to ${PET_NAME_MAX_LENGTH} characters long`;
  if (!name.isWellFormed()) return 'name must be well-formed Unicode (no lone surrogates)';
  if (HAS_CONTROL.test(name)) return 'name must not contain control characters';
  if (HAS_BIDI_CONTROL.test(name)) return 'name must not contain bidirectional control characters';
  if (!HAS_VISIBLE.test(name)) return 'name must contain a visible character (a letter, digit, punctuation or symbol)';
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
