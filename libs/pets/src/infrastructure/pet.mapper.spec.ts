import { describe, expect, it } from 'vitest';
import { PetStatus } from '../domain/pet-status';
import type { Pet } from '../domain/pet';
import { PetMapper } from './pet.mapper';

const stateOf = ({ id, version, name, categoryId, status }: Pet) => ({ id, version, name, categoryId, status });

describe('PetMapper.toDomain', () => {
  // 15 characters or fewer are read through a number, longer ones as a bigint: both sides of that line, signed too.
  it.each([
    ['1', 1n],
    ['999999999999999', 999_999_999_999_999n],
    ['-99999999999999', -99_999_999_999_999n],
    ['9007199254740993', 9_007_199_254_740_993n],
    ['-999999999999999', -999_999_999_999_999n],
    ['9223372036854775807', 9_223_372_036_854_775_807n],
    ['-9223372036854775808', -9_223_372_036_854_775_808n],
  ])('reads the int64 text %s exactly', (text, exact) => {
    const pet = PetMapper.toDomain({ id: text, name: 'Rex', categoryId: text, status: 'sold', version: 3 });
    expect(stateOf(pet)).toEqual({ id: exact, version: 3, name: 'Rex', categoryId: exact, status: PetStatus.Sold });
  });

  it('reads a row without a status as a pet without one', () => {
    expect(stateOf(PetMapper.toDomain({ id: '7', name: 'Rex', categoryId: 3, status: null, version: 1 }))).toEqual({
      id: 7n,
      version: 1,
      name: 'Rex',
      categoryId: 3n,
      status: undefined,
    });
  });
});
