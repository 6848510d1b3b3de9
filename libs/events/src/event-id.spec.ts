import { describe, expect, it } from 'vitest';
import { eventId } from './event-id';

describe('eventId', () => {
  it('is a UUID of version 7 and variant 10, with the time in its first 48 bits', () => {
    const now = Date.UTC(2026, 10, 27, 12, 0, 0, 123);
    const id = eventId(now);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(now);
  });

  it('sorts ids made later after earlier ones, and makes no two alike', () => {
    const ids = Array.from({ length: 1000 }, (_, n) => eventId(1_800_000_000_000 + Math.floor(n / 10)));
    expect(new Set(ids).size).toBe(1000);
    for (let n = 10; n < ids.length; n += 10) expect(ids[n] > ids[n - 1]).toBe(true);
  });
});
