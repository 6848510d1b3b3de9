import { describe, expect, it } from 'vitest';
import { POSTGRES_TEST_URL, postgresKind, postgresPrefixOf, queryDatabase } from './databases';

describe('the throwaway PostgreSQL databases of the tests', () => {
  it('take their names after PETSTORE_TEST_POSTGRES_PREFIX, refusing one that is no plain identifier', () => {
    expect(postgresPrefixOf(undefined)).toBe('petstore_test_');
    expect(postgresPrefixOf('team_42_ci_')).toBe('team_42_ci_');
    for (const refused of ['Team_', '1st_', 'drop table;', 'x'.repeat(49), '']) {
      expect(() => postgresPrefixOf(refused)).toThrow(
        `PETSTORE_TEST_POSTGRES_PREFIX must be lower-case letters, digits and _ (at most 48, not starting with a digit): "${refused}"`,
      );
    }
  });

  it.skipIf(!POSTGRES_TEST_URL)(
    `are made under that prefix and dropped${POSTGRES_TEST_URL ? '' : ' (skipped: set PETSTORE_TEST_POSTGRES_URL to run it)'}`,
    async () => {
      const database = await postgresKind('team_42_ci_').create();
      const name = new URL(database.url).pathname.slice(1);
      expect(name).toMatch(/^team_42_ci_[0-9a-f]{12}$/);
      const exists = `SELECT COUNT(*) AS n FROM pg_database WHERE datname = '${name}'`;
      expect(await queryDatabase(POSTGRES_TEST_URL!, exists)).toEqual([{ n: '1' }]);
      await database.drop();
      expect(await queryDatabase(POSTGRES_TEST_URL!, exists)).toEqual([{ n: '0' }]);
    },
  );
});
