import { describe, expect, it } from 'vitest';
import { New__Thing__, __Thing__ } from './__thing-kebab__';
// <sample>
import { __THING___ERROR_CODES } from './__thing-kebab__.errors';
import { __Thing__Status } from './__thing-kebab__-status';

describe('New__Thing__', () => {
  it('starts as a draft unless told otherwise', () => {
    expect(New__Thing__.create({ name: 'First' })).toEqual({ name: 'First', status: __Thing__Status.Draft });
    expect(New__Thing__.create({ name: 'First', status: __Thing__Status.Active }).status).toBe(__Thing__Status.Active);
  });

  it.each(['', 'x'.repeat(256)])('refuses the name %j', (name) => {
    expect(() => New__Thing__.create({ name })).toThrow(
      expect.objectContaining({ code: __THING___ERROR_CODES.invalid, kind: 'invalid' }),
    );
  });
});
// </sample>

describe('__Thing__', () => {
  it.each([0, -1, 1.5, 2 ** 53])('refuses the id %d', (id) => {
// <sample>
    expect(() => __Thing__.identified(id, New__Thing__.create({ name: 'First' }))).toThrow('__a_thing__ id is a positive integer');
// </sample>
// <bare>
    expect(() => __Thing__.identified(id, New__Thing__.create())).toThrow('__a_thing__ id is a positive integer');
// </bare>
  });
});
