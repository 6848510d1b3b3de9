import { describe, expect, it } from 'vitest';
import { InvalidPetError } from './pet.errors';
import { PetStatus } from './pet-status';

describe('PetStatus', () => {
  it('has exactly one instance per allowed value', () => {
    expect(PetStatus.all.map(String)).toEqual(['available', 'pending', 'sold']);
    expect(PetStatus.from('available')).toBe(PetStatus.Available);
    expect(PetStatus.from('pending')).toBe(PetStatus.Pending);
    expect(PetStatus.from('sold')).toBe(PetStatus.Sold);
  });

  it.each(['SOLD', 'Sold', ' sold', '', 'lost', 'toString', '__proto__'])('refuses %j', (raw) => {
    expect(() => PetStatus.from(raw)).toThrow(InvalidPetError);
    expect(() => PetStatus.from(raw)).toThrow('status must be one of available, pending, sold');
  });
});
