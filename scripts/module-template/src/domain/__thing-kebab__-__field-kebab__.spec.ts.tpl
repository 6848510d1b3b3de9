// <sample>
import { describe, expect, it } from 'vitest';
import { Invalid__Thing__Error } from './__thing-kebab__.errors';
import { __Thing__Status } from './__thing-kebab__-status';

describe('__Thing__Status', () => {
  it('has exactly one instance per allowed value', () => {
    expect(__Thing__Status.all.map(String)).toEqual(['draft', 'active', 'retired']);
    expect(__Thing__Status.from('active')).toBe(__Thing__Status.Active);
  });

  it.each(['ACTIVE', '', 'lost', 'toString', '__proto__'])('refuses %j', (raw) => {
    expect(() => __Thing__Status.from(raw)).toThrow(Invalid__Thing__Error);
    expect(() => __Thing__Status.from(raw)).toThrow('status must be one of draft, active, retired');
  });
});
// </sample>
