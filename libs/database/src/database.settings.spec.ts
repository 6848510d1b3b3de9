import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRefusalNaming } from '@test/support/config-errors';
import { DatabaseSettings } from './database.settings';

describe('DatabaseSettings', () => {
  let folder: string;
  beforeEach(() => (folder = mkdtempSync(join(tmpdir(), 'petstore-database-settings-'))));
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('defaults DATABASE_URL to ./data/petstore.sqlite, making its folder, and the timeout to 3 s', () => {
    const cwd = process.cwd();
    process.chdir(folder);
    try {
      expect({ ...DatabaseSettings.fromEnvironment({}) }).toEqual({
        location: { type: 'sqlite', path: join(folder, 'data', 'petstore.sqlite') },
        timeoutMs: 3_000,
        transactionIdleMs: 50,
        poolSize: 10,
      });
      expect(statSync(join(folder, 'data')).isDirectory()).toBe(true);
    } finally {
      process.chdir(cwd);
    }
  });

  it('reads the four variables', () => {
    const settings = DatabaseSettings.fromEnvironment({
      DATABASE_URL: 'postgres://pets@db.internal:5432/pets',
      DATABASE_TIMEOUT_MS: '750',
      DATABASE_TRANSACTION_IDLE_MS: '120',
      DATABASE_POOL_SIZE: '4',
    });
    expect({ ...settings }).toEqual({
      location: { type: 'postgres', url: 'postgres://pets@db.internal:5432/pets' },
      timeoutMs: 750,
      transactionIdleMs: 120,
      poolSize: 4,
    });
  });

  it.each([
    [{ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'mongodb://x' }, 'DATABASE_URL'],
    [{ DATABASE_URL: './petstore.sqlite' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://user:password@db.internal:5432' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgresql://db.internal/' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'postgres://db.internal:5432/?sslmode=require' }, 'DATABASE_URL'],
    [{ DATABASE_TIMEOUT_MS: '10' }, 'DATABASE_TIMEOUT_MS'],
    [{ DATABASE_TRANSACTION_IDLE_MS: '0' }, 'DATABASE_TRANSACTION_IDLE_MS'],
    [{ DATABASE_TRANSACTION_IDLE_MS: 'soon' }, 'DATABASE_TRANSACTION_IDLE_MS'],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE'],
    [{ DATABASE_POOL_SIZE: '1001' }, 'DATABASE_POOL_SIZE'],
  ])('refuses %j, naming %s', (env, variable) => {
    expectRefusalNaming(
      () => DatabaseSettings.fromEnvironment({ DATABASE_URL: `sqlite:${folder}/db.sqlite`, ...env }),
      variable,
    );
  });

  it('refuses a database path that is a folder', () => {
    expect(() => DatabaseSettings.fromEnvironment({ DATABASE_URL: `sqlite:${folder}` })).toThrow(
      `DATABASE_URL points at ${folder}, which is not a file`,
    );
  });
});
