import { describe, expect, it } from 'vitest';
import { InvalidScopeError } from './api-key.errors';
import { grants, scopePatterns } from './scope';

const KNOWN = new Set(['pets:read', 'pets:write', 'store:read', 'store:write']);

describe('scopes', () => {
  it.each([
    [['pets:read'], 'pets:read', true],
    [['pets:read'], 'pets:write', false],
    [['pets:read'], 'store:read', false],
    [['pets:*'], 'pets:write', true],
    [['pets:*'], 'store:read', false],
    [['*:read'], 'store:read', true],
    [['*:read'], 'store:write', false],
    [['*:*'], 'store:write', true],
    [['*'], 'pets:write', true],
    [['store:read', 'pets:write'], 'pets:write', true],
    [[], 'pets:read', false],
    // A pattern is matched whole: an area named like another's prefix grants nothing of it.
    [['pet:*'], 'pets:read', false],
  ])('%j grants %s: %s', (patterns, needed, granted) => {
    expect(grants(patterns, needed)).toBe(granted);
  });

  it('takes the patterns a key is made with once each, and refuses what is no scope or grants no operation', () => {
    expect(scopePatterns(['pets:read', 'store:*', 'pets:read'], KNOWN)).toEqual(['pets:read', 'store:*']);
    expect(() => scopePatterns([], KNOWN)).toThrow(new InvalidScopeError('a key needs at least one scope'));
    expect(() => scopePatterns(['pets'], KNOWN)).toThrow(
      new InvalidScopeError(
        '"pets" is not a scope: <area>:read, <area>:write, <area>:*, *:read, *:write or * (the areas: pets, store)',
      ),
    );
    expect(() => scopePatterns(['orders:read'], KNOWN)).toThrow(
      new InvalidScopeError(
        '"orders:read" grants no operation of this service; its scopes are pets:read, pets:write, store:read, store:write',
      ),
    );
  });

  it('refuses scopes that would not fit the 1,000 characters a stored key holds, and takes those that do', () => {
    const areas = Array.from({ length: 40 }, (_, n) => `area-${String(n).padStart(2, '0')}`);
    const known = new Set(areas.flatMap((area) => [`${area}:read`, `${area}:write`]));
    const scopes = [...known];
    // 74 scopes of 12 and 13 characters take 998 with their spaces; 75 take 1,011.
    expect(scopePatterns(scopes.slice(0, 74), known)).toEqual(scopes.slice(0, 74));
    expect(() => scopePatterns(scopes.slice(0, 75), known)).toThrow(
      new InvalidScopeError(
        "the scopes take 1011 characters, and a key holds 1000: grant an area's with <area>:*, or every area's reads with *:read",
      ),
    );
  });
});
