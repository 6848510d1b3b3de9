import { describe, expect, it } from 'vitest';
import { PET_NAME_PATTERN, Pet, petNameProblem } from './pet';
import { PET_ERROR_CODES } from './pet.errors';
import { PetStatus } from './pet-status';

const stateOf = ({ name, categoryId, status }: Pet) => ({ name, categoryId, status });

describe('Pet.create', () => {
  it('keeps what it was given, new: no id and no version until its unit of work commits', () => {
    const pet = Pet.create({ name: 'Rex', categoryId: 7, status: PetStatus.Sold });
    expect(stateOf(pet)).toEqual({ name: 'Rex', categoryId: 7n, status: PetStatus.Sold });
    expect([pet.isNew, pet.version]).toEqual([true, 0]);
    expect(() => pet.id).toThrow('a new Pet has no id until its unit of work commits');
  });

  it('records pets.pet-created, made with the id the database gives it', () => {
    const pet = Pet.create({ name: 'Rex', categoryId: 7, status: PetStatus.Available });
    pet.stored(2n ** 53n + 1n, 1);
    expect(pet.recordedEvents()).toEqual([
      {
        name: 'pets.pet-created',
        version: 1,
        aggregateId: '9007199254740993',
        payload: { petId: 9007199254740993n, name: 'Rex', categoryId: 7n, status: 'available' },
      },
    ]);
    expect([pet.id, pet.version, pet.isNew]).toEqual([9007199254740993n, 1, false]);
  });

  it('counts the name in characters, not UTF-16 units', () => {
    expect(Pet.create({ name: '🐕'.repeat(255), categoryId: 1 }).name).toHaveLength(510);
    expect(() => Pet.create({ name: '🐕'.repeat(256), categoryId: 1 })).toThrow('name must be 1 to 255');
  });

  it.each([
    [{ name: '', categoryId: 1 }, 'name must be 1 to 255 characters long'],
    [{ name: 'x'.repeat(256), categoryId: 1 }, 'name must be 1 to 255 characters long'],
    [{ name: 'Rex\ud800', categoryId: 1 }, 'name must be well-formed Unicode (no lone surrogates)'],
    [{ name: 'Rex\u0000', categoryId: 1 }, 'name must not contain control characters'],
    [{ name: 'Re\nx', categoryId: 1 }, 'name must not contain control characters'],
    [{ name: 'Rex\u0085', categoryId: 1 }, 'name must not contain control characters'],
    [{ name: 'Rex\u009f', categoryId: 1 }, 'name must not contain control characters'],
    [{ name: 'Rex\u202egnp.exe', categoryId: 1 }, 'name must not contain bidirectional control characters'],
    [{ name: '\u2066Rex\u2069', categoryId: 1 }, 'name must not contain bidirectional control characters'],
    [{ name: 'Rex\u200f', categoryId: 1 }, 'name must not contain bidirectional control characters'],
    [{ name: 'Rex\u2028', categoryId: 1 }, 'name must not contain line or paragraph separators (U+2028, U+2029)'],
    [{ name: 'Re\u2029x', categoryId: 1 }, 'name must not contain line or paragraph separators (U+2028, U+2029)'],
    [{ name: 'Rex\u{E0041}', categoryId: 1 }, 'name must not contain tag characters (U+E0000 to U+E007F)'],
    [{ name: '\u{E007F}Rex', categoryId: 1 }, 'name must not contain tag characters (U+E0000 to U+E007F)'],
    [{ name: '   ', categoryId: 1 }, 'name must contain a visible character'],
    [{ name: '\u200b\u200c\u200d\u2060\ufeff', categoryId: 1 }, 'name must contain a visible character'],
    [{ name: '\u3000\u00a0\u0301', categoryId: 1 }, 'name must contain a visible character'],
    [{ name: 'Rex', categoryId: 1.5 }, 'categoryId must be an integer'],
    [{ name: 'Rex', categoryId: Number.MAX_SAFE_INTEGER + 1 }, 'categoryId must be an integer'],
    [{ name: 'Rex', categoryId: Number.NaN }, 'categoryId must be an integer'],
    [
      { name: 'Rex', categoryId: 2n ** 63n },
      'categoryId must be an integer from -9223372036854775808 to 9223372036854775807',
    ],
    [{ name: 'Rex', categoryId: -(2n ** 63n) - 1n }, 'categoryId must be an integer'],
  ])('refuses %o', (props, message) => {
    expect(() => Pet.create(props)).toThrow(
      expect.objectContaining({ code: PET_ERROR_CODES.invalidPet, kind: 'invalid' }),
    );
    expect(() => Pet.create(props)).toThrow(message);
  });

  it.each(['Rex', ' Rex ', 'Ré', '北京', '🐕', '\u2764\ufe0f', '42', '!', 'a\u200db', 'שלום', '\u00a0x\u00ad'])(
    'accepts the name %j, and so does the pattern the document states, with and without the u flag',
    (name) => {
      expect(Pet.create({ name, categoryId: 1 }).name).toBe(name);
      expect(new RegExp(PET_NAME_PATTERN, 'u').test(name)).toBe(true);
      expect(new RegExp(PET_NAME_PATTERN).test(name)).toBe(true);
    },
  );

  it.each(['Rex\u0000', 'a\nb', '\u007f', 'x\u0085', 'x\u009f'])(
    'refuses the name %j, and so does the pattern the document states',
    (name) => {
      expect(petNameProblem(name)).toBeDefined();
      expect(new RegExp(PET_NAME_PATTERN, 'u').test(name)).toBe(false);
    },
  );

  it('takes a category id over the whole int64 range, exactly, as a number or a bigint', () => {
    expect(Pet.create({ name: 'a', categoryId: Number.MAX_SAFE_INTEGER }).categoryId).toBe(2n ** 53n - 1n);
    expect(Pet.create({ name: 'a', categoryId: 2n ** 63n - 1n }).categoryId).toBe(2n ** 63n - 1n);
    expect(Pet.create({ name: 'a', categoryId: -(2n ** 63n) }).categoryId).toBe(-(2n ** 63n));
  });
});

describe("Pet's changes of status", () => {
  const changed = (from: string, to: string) => ({
    name: 'pets.pet-status-changed',
    version: 1,
    aggregateId: '4',
    payload: { petId: 4n, from, to },
  });
  const pet = (status?: PetStatus) => Pet.restore(4n, 2, { name: 'Rex', categoryId: 1n, status });

  it('reserves an available pet, gives it back, sells a reserved one, recording each change', () => {
    const rex = pet(PetStatus.Available);
    expect([rex.reserve(), rex.status]).toEqual([true, PetStatus.Pending]);
    expect([rex.release(), rex.status]).toEqual([true, PetStatus.Available]);
    expect([rex.reserve(), rex.sell(), rex.status]).toEqual([true, true, PetStatus.Sold]);
    expect(rex.recordedEvents()).toEqual([
      changed('available', 'pending'),
      changed('pending', 'available'),
      changed('available', 'pending'),
      changed('pending', 'sold'),
    ]);
    rex.clearEvents();
    expect(rex.recordedEvents()).toEqual([]);
  });

  it.each([
    ['reserves', 'pending', (p: Pet) => p.reserve()],
    ['reserves', 'sold', (p: Pet) => p.reserve()],
    ['reserves', undefined, (p: Pet) => p.reserve()],
    ['releases', 'available', (p: Pet) => p.release()],
    ['releases', 'sold', (p: Pet) => p.release()],
    ['sells', 'available', (p: Pet) => p.sell()],
    ['sells', 'sold', (p: Pet) => p.sell()],
  ] as const)('never %s a pet %s: false, unchanged, nothing recorded', (_verb, status, change) => {
    const rex = pet(status === undefined ? undefined : PetStatus.from(status));
    expect(change(rex)).toBe(false);
    expect(rex.status?.value).toBe(status);
    expect(rex.recordedEvents()).toEqual([]);
  });
});
