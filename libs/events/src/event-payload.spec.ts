import { describe, expect, it } from 'vitest';
import { decodePayload, encodePayload } from './event-payload';

describe('an event payload as stored', () => {
  it('keeps an int64 exact and a bigint, past 2^53 and at its bounds', () => {
    const payload = { petId: 9007199254740993n, max: 9223372036854775807n, min: -9223372036854775808n, small: 1n };
    const text = encodePayload(payload);
    expect(text).toBe(
      '{"petId":{"$int64":"9007199254740993"},"max":{"$int64":"9223372036854775807"},' +
        '"min":{"$int64":"-9223372036854775808"},"small":{"$int64":"1"}}',
    );
    expect(decodePayload(text)).toEqual(payload);
  });

  it('keeps strings, numbers, booleans, nulls, arrays and nested objects as JSON does', () => {
    const payload = { name: 'Rex', count: 3, ok: true, none: null, tags: ['a', 2n], inner: { id: 5n, at: 'x' } };
    expect(decodePayload(encodePayload(payload))).toEqual(payload);
  });

  it('leaves an object that only looks like an int64 with another key, or a non-string, as it is', () => {
    const payload = { a: { $int64: '1', other: 2 }, b: { $int64: 5 } };
    expect(decodePayload(encodePayload(payload))).toEqual(payload);
  });
});
