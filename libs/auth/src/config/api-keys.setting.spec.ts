import { ConfigError } from '@app/platform';
import { describe, expect, it } from 'vitest';
import { configuredKeysOf } from './api-keys.setting';

describe('API_KEYS entries', () => {
  it('are name:key, or a bare key known by its place in the list, each with every scope', () => {
    expect(
      configuredKeysOf(['ci:first-key-0123456789', 'second-key-0123456789', 'team.b-2:third+key/0123456789==']),
    ).toEqual([
      { name: 'ci', key: 'first-key-0123456789', scopes: ['*'] },
      { name: 'API_KEYS#2', key: 'second-key-0123456789', scopes: ['*'] },
      { name: 'team.b-2', key: 'third+key/0123456789==', scopes: ['*'] },
    ]);
  });

  it('take the scopes a named key is given after a second colon, joined by "+"', () => {
    expect(
      configuredKeysOf(['dashboard:first-key-0123456789:pets:read+store:read', 'ops:second+key/0123456789==:*:*']),
    ).toEqual([
      { name: 'dashboard', key: 'first-key-0123456789', scopes: ['pets:read', 'store:read'] },
      { name: 'ops', key: 'second+key/0123456789==', scopes: ['*:*'] },
    ]);
    for (const scope of ['pets', 'pets:delete', 'Pets:read', '', 'pets:read store:read']) {
      expect(() => configuredKeysOf([`ci:first-key-0123456789:${scope}`])).toThrow(
        new ConfigError(
          'API_KEYS',
          `entry 1: "${scope.split('+')[0]}" is not a scope: give <area>:read, <area>:write, <area>:*, *:read, *:write or *, joined by "+" (name:key:pets:read+store:read)`,
        ),
      );
    }
  });

  it.each([
    [
      'short-key',
      'entry 1 must be a key of at least 16 letters, digits and - . _ ~ + / (= only at its end), or name:key',
    ],
    [
      'ci:short-key',
      'entry 1 must be a key of at least 16 letters, digits and - . _ ~ + / (= only at its end), or name:key',
    ],
    // Characters a bearer credential cannot carry: such a key could never be presented.
    [
      'has-a-dollar-$-0123456789',
      'entry 1 must be a key of at least 16 letters, digits and - . _ ~ + / (= only at its end), or name:key',
    ],
    [
      'padding=in-the-middle-0123',
      'entry 1 must be a key of at least 16 letters, digits and - . _ ~ + / (= only at its end), or name:key',
    ],
    [
      ':no-name-0123456789abcdef',
      'entry 1: the name before ":" must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or a digit',
    ],
    [
      '-ci:first-key-0123456789',
      'entry 1: the name before ":" must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or a digit',
    ],
  ])('refuses %j, naming API_KEYS and the entry, never echoing it', (entry, message) => {
    const error = (() => {
      try {
        configuredKeysOf([entry]);
      } catch (thrown) {
        return thrown as ConfigError;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ variable: 'API_KEYS', message: `API_KEYS ${message}` });
  });

  it('refuses a name or a key given twice', () => {
    expect(() => configuredKeysOf(['ci:first-key-0123456789', 'ci:second-key-0123456789'])).toThrow(
      'API_KEYS entry 2 repeats the name of entry 1',
    );
    expect(() => configuredKeysOf(['first-key-0123456789', 'ci:first-key-0123456789'])).toThrow(
      'API_KEYS entry 2 repeats the key of entry 1',
    );
  });
});
