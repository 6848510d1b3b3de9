import { InvalidPetError } from './pet.errors';

export const PET_STATUS_VALUES = ['available', 'pending', 'sold'] as const;
export type PetStatusValue = (typeof PET_STATUS_VALUES)[number];

/**
 * A pet's availability: one shared instance per allowed value, so that
 * `status === PetStatus.Sold` works and no other value can exist.
 */
export class PetStatus {
  static readonly Available = new PetStatus('available');
  static readonly Pending = new PetStatus('pending');
  static readonly Sold = new PetStatus('sold');
  static readonly all: readonly PetStatus[] = [PetStatus.Available, PetStatus.Pending, PetStatus.Sold];

  private constructor(readonly value: PetStatusValue) {}

  /** The status named `raw`; anything but the three values is refused. */
  static from(raw: string): PetStatus {
    const status = BY_VALUE.get(raw);
    if (!status) throw new InvalidPetError(`status must be one of ${PET_STATUS_VALUES.join(', ')}`);
    return status;
  }

  toString(): string {
    return this.value;
  }
}

const BY_VALUE: ReadonlyMap<string, PetStatus> = new Map(PetStatus.all.map((status) => [status.value, status]));
