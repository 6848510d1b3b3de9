import { describe, expect, it } from 'vitest';
import { NewPet, PET_NAME_PATTERN, Pet, petNameProblem } from './pet';
import { PET_ERROR_CODES } from './pet.errors';
import { PetStatus } from './pet-status';

describe('NewPet', () => {
  it('keeps what it was given', () => {
    const pet = NewPet.create({ name: 'Rex', categoryId: 7, status: PetStatus.Sold });
    expect(pet).toEqual({ name: 'Rex', categoryId: 7n, status: PetStatus.Sold });
  });

  it('counts the name in characters, not UTF-16 units', () => {
    expect(NewPet.create({ name: '🐕'.repeat(255), categoryId: 1 }).name).toHaveLength(510);
    expect(() => NewPet.create({ name: '🐕'.repeat(256), categoryId: 1 })).toThrow('name must be 1 to 255');
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
    expect(() => NewPet.create(props)).toThrow(
      expect.objectContaining({ code: PET_ERROR_CODES.invalidPet, kind: 'invalid' }),
    );
    expect(() => NewPet.create(props)).toThrow(message);
  });

  it.each(['Rex', ' Rex ', 'Ré', '北京', '🐕', '\u2764\ufe0f', '42', '!', 'a\u200db', 'שלום', '\u00a0x\u00ad'])(
    'accepts the name %j, and so does the pattern the document states, with and without the u flag',
    (name) => {
      expect(NewPet.create({ name, categoryId: 1 }).name).toBe(name);
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
    expect(NewPet.create({ name: 'a', categoryId: Number.MAX_SAFE_INTEGER }).categoryId).toBe(2n ** 53n - 1n);
    expect(NewPet.create({ name: 'a', categoryId: 2n ** 63n - 1n }).categoryId).toBe(2n ** 63n - 1n);
    expect(NewPet.create({ name: 'a', categoryId: -(2n ** 63n) }).categoryId).toBe(-(2n ** 63n));
  });
});

describe('Pet', () => {
  it('is a new pet with the id the database assigned, exact past 2^53', () => {
    const pet = Pet.identified(2n ** 53n + 1n, NewPet.create({ name: 'Rex', categoryId: 7 }));
    expect(pet).toEqual({ id: 9007199254740993n, name: 'Rex', categoryId: 7n, status: undefined });
  });
});
