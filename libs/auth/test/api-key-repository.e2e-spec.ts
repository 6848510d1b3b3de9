import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '@test/support/databases';
import { startTestApp, type TestApp } from '@test/support/test-app';
import { ApiKeyNameTakenError } from '../src/domain/api-key.errors';
import { ApiKeyRepository } from '../src/domain/api-key.repository';

/** The auth_api_keys table through TypeORM's repository, on every database kind. */
for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `the API key repository, on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let t: TestApp;
      let keys: ApiKeyRepository;
      beforeAll(async () => {
        t = await startTestApp({ kind });
        keys = t.app.get(ApiKeyRepository, { strict: false });
      });
      afterAll(() => t?.close());

      const key = (name: string, createdAt: number) => ({
        name,
        prefix: `pk_${name}`,
        digest: name.padEnd(64, '0'),
        scopes: name === 'alpha' ? ['pets:read', 'store:*'] : ['*'],
        createdAt: new Date(createdAt),
      });

      it('stores keys, lists them oldest first, and refuses a taken name', async () => {
        await keys.add(key('beta', 2_000));
        await keys.add(key('alpha', 1_000));
        await expect(keys.add(key('alpha', 3_000))).rejects.toBeInstanceOf(ApiKeyNameTakenError);
        expect(await keys.list()).toEqual([
          { ...key('alpha', 1_000), revokedAt: undefined, lastUsedAt: undefined },
          { ...key('beta', 2_000), revokedAt: undefined, lastUsedAt: undefined },
        ]);
      });

      it('never moves "last used" back, and keeps the first revocation', async () => {
        await keys.recordUse('alpha', new Date(5_000));
        await keys.recordUse('alpha', new Date(4_000));
        await keys.revoke('beta', new Date(6_000));
        await keys.revoke('beta', new Date(7_000));
        expect(await keys.findByName('alpha')).toEqual({
          ...key('alpha', 1_000),
          revokedAt: undefined,
          lastUsedAt: new Date(5_000),
        });
        expect((await keys.findByName('beta'))?.revokedAt).toEqual(new Date(6_000));
        // What a key grants changes while it is active, never once it is revoked.
        await keys.setScopes('alpha', ['pets:*']);
        await keys.setScopes('beta', ['pets:read']);
        expect((await keys.list()).map(({ name, scopes }) => ({ name, scopes }))).toEqual([
          { name: 'alpha', scopes: ['pets:*'] },
          { name: 'beta', scopes: ['*'] },
        ]);
        expect((await keys.active()).map((active) => active.name)).toEqual(['alpha']);
        expect(await keys.findByName('gamma')).toBeUndefined();
      });
    },
  );
}
