import { describe, expect, it } from 'vitest';
import { NewPet, PET_NAME_PATTERN, Pet, petNameProblem } from './pet';
import { PET_ERROR_CODES } from './pet.errors';
import { PetStatus } from './pet-status';

describe('NewPet', () => {
  it('keeps what it was given', () => {
    const pet = NewPet.create({ name: 'Rex', categoryId: 7, status: PetStatus.Sold });
    expect(pet).toEqual({ name: 'Rex', categoryId: 7, status: PetStatus.Sold });
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
    [{ name: '   ', categoryId: 1 }, 'name must contain a visible character'],
    [{ name: '\u200b\u200c\u200d\u2060\ufeff', categoryId: 1 }, 'name must contain a visible character'],
    [{ name: '\u3000\u00a0\u0301', categoryId: 1 }, 'name must contain a visible character'],
    [{ name: 'Rex', categoryId: 1.5 }, 'categoryId must be an integer'],
    [{ name: 'Rex', categoryId: Number.MAX_SAFE_INTEGER + 1 }, 'categoryId must be an integer'],
    [{ name: 'Rex', categoryId: Number.NaN }, 'categoryId must be an integer'],
  ])('refuses %j', (props, message) => {
    expect(() => NewPet.create(props)).toThrow(
      expect.objectContaining({ code: PET_ERROR_CODES.invalidPet, kind: 'invalid' }),
    );
    expect(() => NewPet.create(props)).toThrow(message);
  });

  it.each(['Rex', ' Rex ', 'Ré', '北京', '🐕', '\u2764\ufe0f', '42', '!', 'a\u200db', 'שלום'])(
    'accepts the name %j, and so does the pattern the document states',
    (name) => {
      expect(NewPet.create({ name, categoryId: 1 }).name).toBe(name);
      expect(new RegExp(PET_NAME_PATTERN, 'u').test(name)).toBe(true);
    },
  );

  it.each(['   ', '\u200b', 'Rex\u202e', 'Rex\u0000', 'a\nb', '\u2066\u2069'])(
    'refuses the name %j, and so does the pattern the document states',
    (name) => {
      expect(petNameProblem(name)).toBeDefined();
      expect(new RegExp(PET_NAME_PATTERN, 'u').test(name)).toBe(false);
    },
  );

  it('accepts the extremes a JSON number holds exactly', () => {
    expect(NewPet.create({ name: 'a', categoryId: Number.MAX_SAFE_INTEGER }).categoryId).toBe(Number.MAX_SAFE_INTEGER);
    expect(NewPet.create({ name: 'a', categoryId: -Number.MAX_SAFE_INTEGER }).categoryId).toBe(
      -Number.MAX_SAFE_INTEGER,
    );
  });
});

describe('Pet', () => {
  it('is a new pet with the id the database assigned', () => {
    const pet = Pet.identified(42, NewPet.create({ name: 'Rex', categoryId: 7 }));
    expect(pet).toEqual({ id: 42, name: 'Rex', categoryId: 7, status: undefined });
  });

  it.each([0, -1, 1.5, 2 ** 53])('refuses the id %d', (id) => {
    expect(() => Pet.identified(id, NewPet.create({ name: 'Rex', categoryId: 7 }))).toThrow(
      'a pet id is a positive integer',
    );
  });
});
