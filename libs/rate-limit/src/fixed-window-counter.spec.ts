import { afterAll, describe, expect, it } from 'vitest';
import { FixedWindowCounter } from './fixed-window-counter';

describe('FixedWindowCounter', () => {
  let clock = 0;
  const counter = new FixedWindowCounter(() => clock);
  afterAll(() => counter.onApplicationShutdown());
  const hit = (key = 'k', limit = 3) => counter.increment(key, 60_000, limit, 30_000, 'default');

  it('counts hits in a window, blocks past the limit for blockDuration, then starts afresh', async () => {
    clock = 1_000_000;
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
    clock += 10_000;
    expect(await hit()).toEqual({ totalHits: 2, timeToExpire: 50, isBlocked: false, timeToBlockExpire: 0 });
    expect(await hit()).toEqual({ totalHits: 3, timeToExpire: 50, isBlocked: false, timeToBlockExpire: 0 });
    expect(await hit()).toEqual({ totalHits: 4, timeToExpire: 50, isBlocked: true, timeToBlockExpire: 30 });
    clock += 29_999;
    expect(await hit()).toEqual({ totalHits: 5, timeToExpire: 21, isBlocked: true, timeToBlockExpire: 1 });
    clock += 1;
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('starts a new window when the last one is over, and keeps keys and throttlers apart', async () => {
    clock = 2_000_000;
    await hit('a');
    await hit('a');
    expect((await hit('b')).totalHits).toBe(1);
    expect((await counter.increment('a', 60_000, 3, 30_000, 'other')).totalHits).toBe(1);
    clock += 60_000;
    expect(await hit('a')).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
  });

  it('forgets keys whose window and block are over', async () => {
    clock = 3_000_000;
    counter.sweep();
    await hit('x', 0);
    const before = counter.size;
    clock += 60_000;
    counter.sweep();
    expect(counter.size).toBeLessThan(before);
    clock += 60_000;
    counter.sweep();
    expect(counter.size).toBe(0);
  });
});
