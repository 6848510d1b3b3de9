import { describe, expect, it } from 'vitest';
import { New__Thing__, __Thing__, is__Thing__Id } from './__thing-kebab__';
// <sample>
import { __THING___ERROR_CODES } from './__thing-kebab__.errors';
// <each field>
// <enum>
import { __Thing____Field__ } from './__thing-kebab__-__field-kebab__';
// </enum>
// </each>

/** The fields a new __thing_words__ needs (the others take their defaults), and the __thing_words__ they make. */
const REQUIRED = { __EACH:required(__field__: __madeDomain__)__ };
const MADE = { __EACH(__field__: __madeDomain__)__ };

describe('New__Thing__', () => {
  it('keeps the fields it is given, and gives those left out their defaults', () => {
    expect(New__Thing__.create(REQUIRED)).toEqual(MADE);
// <each field>
// <enum>
    expect(New__Thing__.create({ ...REQUIRED, __field__: __otherDomain__ }).__field__).toBe(__otherDomain__);
// </enum>
// </each>
  });
// <each field>
// <string>

  it.each([__badLengths__])('refuses the __field__ %j', (__field__) => {
    expect(() => New__Thing__.create({ ...REQUIRED, __field__ })).toThrow(
      expect.objectContaining({ code: __THING___ERROR_CODES.invalid, kind: 'invalid' }),
    );
  });
// </string>
// <int>

  it.each([__badDomainValues__])('refuses the __field__ %j', (__field__) => {
    expect(() => New__Thing__.create({ ...REQUIRED, __field__ })).toThrow(
      expect.objectContaining({ code: __THING___ERROR_CODES.invalid, kind: 'invalid' }),
    );
  });
// </int>
// </each>
});
// <update>

describe('__Thing__.checkChanges', () => {
  it('takes the fields given, checked as a new __thing_words__ is', () => {
// <each field>
    expect(__Thing__.checkChanges({ __field__: __otherDomain__ })).toEqual({ __field__: __otherDomain__ });
// <string>
    expect(() => __Thing__.checkChanges({ __field__: 'x'.repeat(__max__ + 1) })).toThrow('__wrongWhy__');
// </string>
// <int>
    expect(() => __Thing__.checkChanges({ __field__: __wrongJson__ })).toThrow('__wrongWhy__');
// </int>
// </each>
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
    expect(__Thing__.identified(2n ** 53n + 1n, New__Thing__.create(REQUIRED)).id).toBe(9007199254740993n);
// </sample>
// <bare>
    expect(__Thing__.identified(2n ** 53n + 1n, New__Thing__.create()).id).toBe(9007199254740993n);
// </bare>
  });
});
