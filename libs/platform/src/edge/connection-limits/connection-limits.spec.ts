import { describe, expect, it } from 'vitest';
import { expectRefusalNaming } from '@test/support/config-errors';
import { Settings } from '../../config/settings';
import { ConnectionLimits } from './connection-limits';
import { openFileLimit } from './open-file-limit';

/** The settings of `env` where the open-file limit is `fileLimit` (`undefined`: the system does not say). */
const of = (env: Record<string, string>, fileLimit: number | undefined) =>
  ConnectionLimits.of(new Settings(env), () => fileLimit);

describe('ConnectionLimits', () => {
  it('defaults to the open-file limit less 64, at most 10,000 (1,000 where the limit is unknown)', () => {
    const limit = openFileLimit();
    expect(ConnectionLimits.of(new Settings({})).maxConnections).toBe(
      limit === undefined ? 1_000 : Math.min(10_000, limit - 64),
    );
    expect({ ...of({}, 1024) }).toEqual({ maxConnections: 960, maxPerAddress: 240 });
    expect({ ...of({}, 1_048_576) }).toEqual({ maxConnections: 10_000, maxPerAddress: 2_500 });
    expect({ ...of({}, undefined) }).toEqual({ maxConnections: 1_000, maxPerAddress: 250 });
  });

  it('reads MAX_CONNECTIONS, and MAX_CONNECTIONS_PER_ADDRESS (a quarter of it unless set)', () => {
    expect({ ...of({ MAX_CONNECTIONS: '500' }, 1024) }).toEqual({ maxConnections: 500, maxPerAddress: 125 });
    expect({ ...of({ MAX_CONNECTIONS: '17' }, 1024) }).toEqual({ maxConnections: 17, maxPerAddress: 5 });
    expect({ ...of({ MAX_CONNECTIONS: '500', MAX_CONNECTIONS_PER_ADDRESS: '500' }, 1024) }).toEqual({
      maxConnections: 500,
      maxPerAddress: 500,
    });
  });

  it('says how far the open-file limit allows', () => {
    expect(() => of({ MAX_CONNECTIONS: '1000' }, 1024)).toThrow(
      'MAX_CONNECTIONS must leave 64 of the 1024 files this process may open (ulimit -n) free: at most 960 (got "1000")',
    );
    expect(() => of({}, 64)).toThrow(
      'MAX_CONNECTIONS cannot be served: the open-file limit is 64; raise it (ulimit -n)',
    );
  });

  it.each([[{ MAX_CONNECTIONS: '8' }], [{ MAX_CONNECTIONS: 'lots' }], [{ MAX_CONNECTIONS: '99999999' }]])(
    'refuses %j, naming MAX_CONNECTIONS',
    (env) => expectRefusalNaming(() => of(env, 1024), 'MAX_CONNECTIONS'),
  );

  it.each([['0'], ['501'], ['some']])('refuses MAX_CONNECTIONS_PER_ADDRESS=%s, naming it', (value) =>
    expectRefusalNaming(
      () => of({ MAX_CONNECTIONS: '500', MAX_CONNECTIONS_PER_ADDRESS: value }, 1024),
      'MAX_CONNECTIONS_PER_ADDRESS',
    ),
  );
});
