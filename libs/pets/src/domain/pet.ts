import { AggregateRoot } from '@app/platform/domain';
import { InvalidPetError } from './pet.errors';
import { petCreated } from './pet-created.event';
import { PetStatus } from './pet-status';
import { petStatusChanged } from './pet-status-changed.event';

export const PET_NAME_MAX_LENGTH = 255;

/** The whole name rule, as the document gives it to clients. */
export const PET_NAME_DESCRIPTION =
  "The pet's name: 1 to 255 characters (code points) of well-formed Unicode, with at least one letter, digit, " +
  'punctuation mark or symbol, and none of: control characters (Unicode Cc), bidirectional controls (U+061C, ' +
  'U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069), line and paragraph separators (U+2028, U+2029), tag ' +
  'characters (U+E0000 to U+E007F). The pattern states the part of this rule that every regular-expression ' +
  'engine reads alike.';

/**
 * Bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069):
 * they reorder the text around a name wherever it is shown (a "Trojan Source"
 * name in a list or a log).
 */
const BIDI_CONTROLS = '\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069';
/** Control characters (Unicode Cc). */
const CONTROLS = '\\u0000-\\u001F\\u007F-\\u009F';
/** Line and paragraph separators (U+2028, U+2029): line breaks in disguise, which end a line of a log or a script. */
const SEPARATORS = '\\u2028\\u2029';
/** Tag characters (U+E0000-U+E007F): invisible, they carry text no one sees in the name. */
const TAGS = '\\u{E0000}-\\u{E007F}';
/** What can be seen: a letter, a digit, a punctuation mark or a symbol (an emoji is one). */
const VISIBLE = '\\p{L}\\p{N}\\p{P}\\p{S}';

/**
 * The part of the name rule a JSON Schema pattern can say so that every
 * regular-expression engine reads it alike (ECMA-262 with or without the `u`
 * flag, Python's `re`, Go's RE2): no control characters, with `\x` escapes
 * only. It never refuses a name the rule accepts; the rest of the rule (no
 * bidirectional controls, separators or tag characters, a visible character)
 * is in the document's description, and the service checks all of it.
 */
export const PET_NAME_PATTERN = '^[^\\x00-\\x1F\\x7F-\\x9F]+$';

const HAS_CONTROL = new RegExp(`[${CONTROLS}]`, 'u');
const HAS_BIDI_CONTROL = new RegExp(`[${BIDI_CONTROLS}]`, 'u');
const HAS_SEPARATOR = new RegExp(`[${SEPARATORS}]`, 'u');
const HAS_TAG = new RegExp(`[${TAGS}]`, 'u');
const HAS_VISIBLE = new RegExp(`[${VISIBLE}]`, 'u');

/** The range of the contract's int64 identifiers: pets' ids (from 1) and categories'. */
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const CATEGORY_RULE = `categoryId must be an integer from ${INT64_MIN} to ${INT64_MAX}`;

export interface PetProps {
  name: string;
  categoryId: bigint;
  status?: PetStatus;
}

/**
 * A pet of the catalogue: an aggregate, identified by the id the database assigned (an int64 from 1, kept a `bigint`
 * so that it stays exact past 2^53). Its changes of status are its own methods, each checking its rule and recording
 * `pets.pet-status-changed`; its creation records `pets.pet-created`.
 */
export class Pet extends AggregateRoot {
  #status: PetStatus | undefined;

  private constructor(
    stored: { id: bigint; version: number } | undefined,
    readonly name: string,
    readonly categoryId: bigint,
    status: PetStatus | undefined,
  ) {
    super(stored);
    this.#status = status;
  }

  /**
   * A new pet, its rules checked (the name's, the category's range); `categoryId` as a request carried it: a
   * `number` (exact below 2^53) or a `bigint`, an int64 either way. It has an id once its unit of work commits.
   */
  static create({ name, categoryId, status }: Omit<PetProps, 'categoryId'> & { categoryId: number | bigint }): Pet {
    const problem = petNameProblem(name);
    if (problem) throw new InvalidPetError(problem);
    const category =
      typeof categoryId === 'bigint' ? categoryId : Number.isSafeInteger(categoryId) ? BigInt(categoryId) : undefined;
    if (category === undefined || category < INT64_MIN || category > INT64_MAX)
      throw new InvalidPetError(CATEGORY_RULE);
    const pet = new Pet(undefined, name, category, status);
    pet.record(() => petCreated(pet));
    return pet;
  }

  /**
   * A pet as the catalogue stored it, at its row's version. Its rules were checked when it was added, and the table
   * keeps them (NOT NULL columns, the status CHECK), so reading it back does not check them again on every row.
   */
  static restore(id: bigint, version: number, { name, categoryId, status }: PetProps): Pet {
    return new Pet({ id, version }, name, categoryId, status);
  }

  get status(): PetStatus | undefined {
    return this.#status;
  }

  /** Reserves it for an order (available to pending); false, and nothing changes, when it is not available. */
  reserve(): boolean {
    return this.move(PetStatus.Available, PetStatus.Pending);
  }

  /** Gives a reserved pet back (pending to available); false, and nothing changes, when it is not reserved. */
  release(): boolean {
    return this.move(PetStatus.Pending, PetStatus.Available);
  }

  /** Sells a reserved pet (pending to sold); false, and nothing changes, when it is not reserved. */
  sell(): boolean {
    return this.move(PetStatus.Pending, PetStatus.Sold);
  }

  private move(from: PetStatus, to: PetStatus): boolean {
    if (this.#status !== from) return false;
    this.#status = to;
    this.record(() => petStatusChanged(this.id, from.value, to.value));
    return true;
  }
}

/**
 * What is wrong with a pet name, if anything: 1 to 255 characters (code
 * points), well-formed Unicode (a lone surrogate would be stored as U+FFFD,
 * so the pet would not come back as it was sent), no control characters
 * (Unicode category Cc), no bidirectional controls, no line or paragraph
 * separators, no tag characters, and at least one character that can be
 * seen: a name of spaces or zero-width characters only would be a blank line
 * in every list. PET_NAME_DESCRIPTION says the same to clients.
 */
export function petNameProblem(name: string): string | undefined {
  const length = [...name].length;
  if (length < 1 || length > PET_NAME_MAX_LENGTH) return `name must be 1 to ${PET_NAME_MAX_LENGTH} characters long`;
  if (!name.isWellFormed()) return 'name must be well-formed Unicode (no lone surrogates)';
  if (HAS_CONTROL.test(name)) return 'name must not contain control characters';
  if (HAS_BIDI_CONTROL.test(name)) return 'name must not contain bidirectional control characters';
  if (HAS_SEPARATOR.test(name)) return 'name must not contain line or paragraph separators (U+2028, U+2029)';
  if (HAS_TAG.test(name)) return 'name must not contain tag characters (U+E0000 to U+E007F)';
  if (!HAS_VISIBLE.test(name)) return 'name must contain a visible character (a letter, digit, punctuation or symbol)';
  return undefined;
}

/** Whether `id` can be a pet's: an int64 from 1 (any other is no pet's, without asking the database). */
export function isPetId(id: bigint): boolean {
  return id >= 1n && id <= INT64_MAX;
}
