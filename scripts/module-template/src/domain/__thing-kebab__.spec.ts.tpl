import { describe, expect, it } from 'vitest';
import { __Thing__, is__Thing__Id } from './__thing-kebab__';
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
const fieldsOf = (__thing__: __Thing__) => ({ __EACH(__field__: __thing__.__field__)__ });

describe('__Thing__.create', () => {
  it('keeps the fields it is given, and gives those left out their defaults', () => {
    expect(fieldsOf(__Thing__.create(REQUIRED))).toEqual(MADE);
// <each field>
// <enum>
    expect(__Thing__.create({ ...REQUIRED, __field__: __otherDomain__ }).__field__).toBe(__otherDomain__);
// </enum>
// </each>
  });
// <each field>
// <string>

  it.each([__badLengths__])('refuses the __field__ %j', (__field__) => {
    expect(() => __Thing__.create({ ...REQUIRED, __field__ })).toThrow(
      expect.objectContaining({ code: __THING___ERROR_CODES.invalid, kind: 'invalid' }),
    );
  });
// </string>
// <int>

  it.each([__badDomainValues__])('refuses the __field__ %j', (__field__) => {
    expect(() => __Thing__.create({ ...REQUIRED, __field__ })).toThrow(
      expect.objectContaining({ code: __THING___ERROR_CODES.invalid, kind: 'invalid' }),
    );
  });
// </int>
// </each>
});
// <update>

describe('__Thing__.change', () => {
  it('takes the fields given, checked as a new __thing_words__ is, and records its change', () => {
    const __thing__ = __Thing__.restore(4n, 1, MADE);
// <each field>
    __thing__.change({ __field__: __otherDomain__ });
    expect(__thing__.__field__).toEqual(__otherDomain__);
// <string>
    expect(() => __thing__.change({ __field__: 'x'.repeat(__max__ + 1) })).toThrow('__wrongWhy__');
// </string>
// <int>
    expect(() => __thing__.change({ __field__: __wrongJson__ })).toThrow('__wrongWhy__');
// </int>
// </each>
    expect(__thing__.recordedEvents()[0]).toEqual({
      name: '__things-kebab__.__thing-kebab__-changed',
      version: 1,
      aggregateId: '4',
      payload: { __thing__Id: 4n },
    });
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
  it('has the id the database gives it, exact past 2^53, and records its creation with it', () => {
// <sample>
    const __thing__ = __Thing__.create(REQUIRED);
// </sample>
// <bare>
    const __thing__ = __Thing__.create();
// </bare>
    expect(__thing__.isNew).toBe(true);
    __thing__.stored(2n ** 53n + 1n, 1);
    expect(__thing__.id).toBe(9007199254740993n);
    expect(__thing__.recordedEvents()).toEqual([
      {
        name: '__things-kebab__.__thing-kebab__-created',
        version: 1,
        aggregateId: '9007199254740993',
        payload: { __thing__Id: 9007199254740993n },
      },
    ]);
  });
});
