import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { configuredKeysOf } from './api-keys.setting';
import { ConfiguredApiKeys } from '../application/configured-api-keys';

describe('ConfiguredApiKeys', () => {
  const keys = new ConfiguredApiKeys(configuredKeysOf(['ci:first-key-0123456789', 'second-key-0123456789']));

  it('knows each key by its name or its place, never by anything computed from the key', () => {
    expect(keys.verify('first-key-0123456789')).toEqual({ principal: 'ci', scopes: ['*'] });
    expect(keys.verify('second-key-0123456789')).toEqual({ principal: 'API_KEYS#2', scopes: ['*'] });
    const digest = createHash('sha256').update('second-key-0123456789').digest('hex');
    expect(digest).not.toContain(keys.verify('second-key-0123456789')!.principal);
  });

  it.each([
    '',
    'first-key-012345678',
    'first-key-01234567890',
    'FIRST-KEY-0123456789',
    'first-key-0123456789 ',
    'ci:first-key-0123456789',
  ])('refuses %j', (presented) => expect(keys.verify(presented)).toBeUndefined());

  it('refuses everything when no key is configured', () => {
    expect(new ConfiguredApiKeys([]).verify('anything-at-all-here')).toBeUndefined();
  });
});
