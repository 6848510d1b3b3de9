import { describe, expect, it } from 'vitest';
import { New__Thing__, __Thing__, is__Thing__Id } from './__thing-kebab__';
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
// <update>

describe('__Thing__.checkChanges', () => {
  it('takes the fields given, checked as a new __thing__ is', () => {
    expect(__Thing__.checkChanges({ status: __Thing__Status.Retired })).toEqual({ status: __Thing__Status.Retired });
    expect(() => __Thing__.checkChanges({ name: '' })).toThrow('name must be 1 to 255 characters long');
  });
});
// </update>
// </sample>

describe('is__Thing__Id', () => {
  it.each([1n, 2n ** 53n + 1n, 2n ** 63n - 1n])('takes %s, an int64 from 1', (id) => {
    expect(is__Thing__Id(id)).toBe(true);
  });

  it.each([0n, -1n, 2n ** 63n])('refuses %s', (id) => {
    expect(is__Thing__Id(id)).toBe(false);
  });
});

describe('__Thing__', () => {
  it('keeps an id past 2^53 exact', () => {
// <sample>
    expect(__Thing__.identified(2n ** 53n + 1n, New__Thing__.create({ name: 'First' })).id).toBe(9007199254740993n);
// </sample>
// <bare>
    expect(__Thing__.identified(2n ** 53n + 1n, New__Thing__.create()).id).toBe(9007199254740993n);
// </bare>
  });
});
