import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BACKUP_USAGE, runBackupCommand } from '@app/database';
import { getMetadataArgsStorage } from 'typeorm';
import { inEnvironment } from './support/environment';
import { serviceTables } from './support/service-modules';
import sqlite3 from 'sqlite3';
import { describe, expect, it } from 'vitest';
import { postgres } from './support/databases';
import { call, listAllPets } from './support/http-client';
import { runBackupCli, servicePerTest } from './support/service-process';
import { TEST_API_KEY } from './support/test-app';
import { waitFor } from './support/wait-for';
import { startWriters, type WriteOutcome } from './support/writers';

type Pet = NonNullable<WriteOutcome['body']>;

/**
 * What the backup reports of a database the service made: the newest migration of its modules and every table of
 * their entities but the readiness probe's, by name, each with its rows. Worked out from the modules, so that a new
 * module's tables are expected without an edit.
 */
async function expectedReport() {
  const schema = await serviceTables();
  const newest = schema.migrations.map((migration) => migration.name).sort((a, b) => timestampOf(a) - timestampOf(b));
  const tables = getMetadataArgsStorage()
    .tables.filter((table) => schema.entities.includes(table.target as never) && table.name !== 'database_write_probe')
    .map((table) => table.name!)
    .sort();
  const line = new RegExp(`^Backed up (.+) to (.+): integrity ok, schema at ${newest.at(-1)}; (.+)\\n$`);
  return { line, tables };
}
const timestampOf = (migration: string) => Number(/(\d{13})$/.exec(migration)?.[1]);

/** The rows of each table, as the report's line lists them. */
function rowsOf(counted = ''): Map<string, number> {
  return new Map(
    counted.split(', ').map((part) => {
      const [, table, rows] = /^(\w+) (\d+) rows$/.exec(part) ?? [];
      return [table, Number(rows)];
    }),
  );
}

/**
 * `npm run backup`: the built CLI copies the database of a service that is
 * being written to, and a new service started on the copy (restored as
 * docs/operations.md says: the file copied into place) has every pet that was
 * acknowledged before the backup began.
 */
describe('npm run backup', () => {
  const service = servicePerTest(TEST_API_KEY);

  it('copies a database under write load; restored, it holds every pet acknowledged before the backup began', async () => {
    const live = await service.start();
    const writers = startWriters(live.baseUrl, { concurrency: 6, prefix: 'backup' });
    try {
      await waitFor(() => writers.acknowledged().length >= 60, 'sixty acknowledged writes');
      const before = writers.acknowledged();
      const file = join(service.folder(), 'backup.sqlite');
      const backup = await runBackupCli([file], service.env());
      const after = writers.acknowledged().length;
      await waitFor(() => writers.acknowledged().length >= after + 20, 'writes after the backup');
      await writers.stop();

      expect(backup.stderr).toBe('');
      expect(backup.status).toBe(0);
      const REPORT = await expectedReport();
      const [, source, target, counted] = REPORT.line.exec(backup.stdout) ?? [];
      expect(source).toBe(join(service.folder(), 'data', 'petstore.sqlite'));
      expect(target).toBe(file);
      const counts = rowsOf(counted);
      expect([...counts.keys()]).toEqual(REPORT.tables);
      const rows = counts.get('pets')!;
      expect(rows).toBeGreaterThanOrEqual(before.length);
      // Each pet came with its pets.pet-created, in the same commit: the copy holds as many of them; no create was keyed.
      expect(counts.get('events_outbox')).toBe(rows);
      expect(counts.get('idempotency_keys')).toBe(0);
      // Only the backup's own file: no temporary copy is left beside it.
      expect(readdirSync(service.folder()).sort()).toEqual(['backup.sqlite', 'data']);
      // The writers never saw anything but a 201 while the backup ran.
      expect(writers.outcomes.filter((outcome) => outcome.status !== 201)).toEqual([]);

      const restoredFolder = join(service.folder(), 'restored');
      const restoredFile = join(restoredFolder, 'petstore.sqlite');
      mkdirSync(restoredFolder);
      copyFileSync(file, restoredFile);
      const restored = await service.start({ DATABASE_URL: `sqlite:${restoredFile}` });
      const pets = await listAllPets<Pet>(restored.baseUrl);
      expect(pets).toHaveLength(rows);
      const byId = new Map(pets.map((pet) => [pet.id, pet]));
      for (const pet of before) expect(byId.get(pet.id)).toEqual(pet);
      // The copy kept the id counter: a pet created after the restore gets an id no backed-up pet had.
      const created = await call(restored.baseUrl, 'POST', '/v1/pets', { name: 'After restore', categoryId: 1 });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: Math.max(...pets.map((pet) => pet.id)) + 1,
        name: 'After restore',
        categoryId: 1,
      });
    } finally {
      await writers.stop();
    }
  });

  it('never overwrites a file, and leaves nothing behind when it cannot write', async () => {
    const live = await service.start();
    expect((await call(live.baseUrl, 'POST', '/v1/pets', { name: 'Rex', categoryId: 1 })).status).toBe(201);
    const existing = join(service.folder(), 'existing.sqlite');
    writeFileSync(existing, 'not to be lost');
    expect(await runBackupCli([existing], service.env())).toEqual({
      status: 1,
      stdout: '',
      stderr: `${existing} exists already: a backup never overwrites a file; name a new one.\n`,
    });
    const nowhere = join(service.folder(), 'no-such-folder', 'backup.sqlite');
    const failed = await runBackupCli([nowhere], service.env());
    expect(failed).toMatchObject({ status: 1, stdout: '' });
    expect(failed.stderr).toMatch(/^Backup failed: .*unable to open database/);
    expect(existsSync(join(service.folder(), 'no-such-folder'))).toBe(false);
    expect(readdirSync(service.folder()).sort()).toEqual(['data', 'existing.sqlite']);
  });

  it('refuses a database that does not exist, PostgreSQL, and a missing argument (in this process)', async () => {
    const backup = async (args: string[], env: Record<string, string>) => {
      let stdout = '';
      let stderr = '';
      const status = await inEnvironment(env, () =>
        runBackupCommand(args, {
          out: (text) => (stdout += `${text}\n`),
          err: (text) => (stderr += `${text}\n`),
        }),
      );
      return { status, stdout, stderr };
    };
    const missing = join(service.folder(), 'none.sqlite');
    expect(await backup([join(service.folder(), 'b.sqlite')], { DATABASE_URL: `sqlite:${missing}` })).toEqual({
      status: 1,
      stdout: '',
      stderr: `Backup failed: cannot open ${missing} (SQLITE_CANTOPEN: unable to open database file)\n`,
    });
    expect(existsSync(missing)).toBe(false);
    const foreign = join(service.folder(), 'foreign.sqlite');
    await new Promise<void>((done, fail) => {
      const db = new sqlite3.Database(foreign);
      db.exec('CREATE TABLE notes (text TEXT)', (error) => db.close(() => (error ? fail(error) : done())));
    });
    expect(await backup([join(service.folder(), 'c.sqlite')], { DATABASE_URL: `sqlite:${foreign}` })).toEqual({
      status: 1,
      stdout: '',
      stderr: "Backup failed: the database holds no migrations table: it is not this service's database\n",
    });
    expect(readdirSync(service.folder()).sort()).toEqual(['foreign.sqlite']);
    expect(await backup(['b.sqlite'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/x' })).toEqual({
      status: 1,
      stdout: '',
      stderr:
        'DATABASE_URL names a PostgreSQL database: back it up with pg_dump (docs/operations.md, "Back up and restore").\n',
    });
    expect(await backup([], service.env())).toEqual({
      status: 2,
      stdout: '',
      stderr: `one argument is needed: the file to write the backup to\n\n${BACKUP_USAGE}\n`,
    });
    expect(await backup(['--help'], service.env())).toEqual({ status: 0, stdout: `${BACKUP_USAGE}\n`, stderr: '' });
  });
});

const PG_TOOLS = ['pg_dump', 'pg_restore'].every((tool) => spawnSync(tool, ['--version']).status === 0);
const PG_SKIP = postgres.skipReason ?? (PG_TOOLS ? undefined : 'pg_dump and pg_restore are not on the PATH');

/** The README's pg_dump and pg_restore commands, run once on a database being written to. */
describe.skipIf(PG_SKIP)(`pg_dump and pg_restore${PG_SKIP ? ` (skipped: ${PG_SKIP})` : ''}`, () => {
  const service = servicePerTest(TEST_API_KEY);

  it('dump a database under write load; restored, it holds every pet acknowledged before the dump began', async () => {
    const source = await postgres.create();
    const target = await postgres.create();
    try {
      const live = await service.start({ DATABASE_URL: source.url });
      const writers = startWriters(live.baseUrl, { concurrency: 6, prefix: 'pg-dump' });
      try {
        await waitFor(() => writers.acknowledged().length >= 60, 'sixty acknowledged writes');
        const before = writers.acknowledged();
        const file = join(service.folder(), 'petstore.dump');
        await promisify(execFile)('pg_dump', ['--format=custom', `--file=${file}`, source.url]);
        await writers.stop();
        expect(writers.outcomes.filter((outcome) => outcome.status !== 201)).toEqual([]);

        await promisify(execFile)('pg_restore', ['--no-owner', `--dbname=${target.url}`, file]);
        const restored = await service.start({ DATABASE_URL: target.url });
        const pets = await listAllPets<Pet>(restored.baseUrl);
        const byId = new Map(pets.map((pet) => [pet.id, pet]));
        for (const pet of before) expect(byId.get(pet.id)).toEqual(pet);
        const created = await call(restored.baseUrl, 'POST', '/v1/pets', { name: 'After restore', categoryId: 1 });
        expect(created.status).toBe(201);
        // A sequence is not transactional: ids taken by creates still in flight at the dump are skipped, never reused.
        expect(created.body).toEqual({ id: expect.any(Number), name: 'After restore', categoryId: 1 });
        expect((created.body as Pet).id).toBeGreaterThan(Math.max(...pets.map((pet) => pet.id)));
      } finally {
        await writers.stop();
      }
    } finally {
      await source.drop();
      await target.drop();
    }
  });
});
