import { describe, expect, it } from 'vitest';
import { ConfiguredApiKeys } from './configured-api-keys';

describe('ConfiguredApiKeys', () => {
  const keys = new ConfiguredApiKeys(['first-key-0123456789', 'second-key-0123456789']);

  it('knows each configured key by a fingerprint that is not the key', () => {
    const first = keys.verify('first-key-0123456789');
    const second = keys.verify('second-key-0123456789');
    expect(first?.principal).toMatch(/^[0-9a-f]{12}$/);
    expect(second?.principal).toMatch(/^[0-9a-f]{12}$/);
    expect(first?.principal).not.toBe(second?.principal);
    expect(keys.verify('first-key-0123456789')).toEqual(first);
  });

  it.each(['', 'first-key-012345678', 'first-key-01234567890', 'FIRST-KEY-0123456789', 'first-key-0123456789 '])(
    'refuses %j',
    (presented) => expect(keys.verify(presented)).toBeUndefined(),
  );

  it('refuses everything when no key is configured', () => {
    expect(new ConfiguredApiKeys([]).verify('anything-at-all-here')).toBeUndefined();
  });
});
