import { describe, expect, it } from 'vitest';
import { withoutCredentials } from './without-credentials';

describe('withoutCredentials', () => {
  it.each([
    [
      'http://user:password@collector:4318/v1/traces?token=abc&team=x',
      'http://***@collector:4318/v1/traces?token=***&team=***',
    ],
    ['redis://:secret@127.0.0.1:6379/0', 'redis://***@127.0.0.1:6379/0'],
    ['postgres://app:pw@db/petstore', 'postgres://***@db/petstore'],
    ['https://example.com/v1?key', 'https://example.com/v1?***'],
    ['https://example.com/v1', 'https://example.com/v1'],
    // Not a valid URL (what a configuration error echoes): masked all the same.
    ['htp//a:b@host?x=1', 'htp//***@host?x=***'],
    ['cannot reach http://u:p@host/path: refused', 'cannot reach http://***@host/path: refused'],
  ])('masks %s', (text, masked) => {
    expect(withoutCredentials(text)).toBe(masked);
  });
});
