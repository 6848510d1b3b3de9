import { closeSync, existsSync, fsyncSync, linkSync, openSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import sqlite3 from 'sqlite3';
import type { CommandOutput } from '@app/platform';
import { databaseConfig } from './database.settings';

export const BACKUP_USAGE = `Usage: npm run backup -- <file>

Writes a consistent copy of the SQLite database DATABASE_URL names (the environment, or .env) to <file>, while the
service keeps serving: SQLite's VACUUM INTO reads one snapshot, so every write committed before it began is in the
copy. Then checks the copy's integrity and prints how many rows each table holds. <file> must not exist yet.
PostgreSQL is backed up with pg_dump (docs/operations.md, "Back up and restore").`;

/** Exit statuses: 0 written and checked, 1 refused or failed, 2 not understood. */
const OK = 0;
const FAILED = 1;
const USAGE = 2;

/** Tables whose rows say nothing to an operator: SQLite's own, the migrations' record, the readiness probe. */
const NOT_COUNTED = /^(sqlite_.*|migrations|database_write_probe)$/;

/**
 * `npm run backup -- <file>`: an online backup of the service's SQLite
 * database. The copy is written under a temporary name beside <file>, checked
 * (`PRAGMA integrity_check`), flushed to disk, and only then given its name,
 * which it never takes over from an existing file: a failed or interrupted
 * backup leaves no file that looks like a backup. Returns the exit status.
 */
export async function runBackupCommand(argv: readonly string[], io: CommandOutput): Promise<number> {
  let target: string;
  try {
    const { positionals, values } = parseArgs({
      args: [...argv],
      options: { help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
    if (values.help) {
      io.out(BACKUP_USAGE);
      return OK;
    }
    if (positionals.length !== 1) throw new Error('one argument is needed: the file to write the backup to');
    target = resolve(positionals[0]);
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${BACKUP_USAGE}`);
    return USAGE;
  }
  try {
    // The database's namespace of Nest's configuration, read from the environment as the service reads it.
    const { location: database, timeoutMs } = databaseConfig();
    if (database.type !== 'sqlite') {
      io.err(
        'DATABASE_URL names a PostgreSQL database: back it up with pg_dump (docs/operations.md, "Back up and restore").',
      );
      return FAILED;
    }
    if (existsSync(target)) {
      io.err(`${target} exists already: a backup never overwrites a file; name a new one.`);
      return FAILED;
    }
    const report = await backUpSqlite(database.path, target, timeoutMs);
    io.out(
      `Backed up ${database.path} to ${target}: integrity ok, schema at ${report.schema}; ` +
        report.tables.map(({ name, rows }) => `${name} ${rows} rows`).join(', '),
    );
    return OK;
  } catch (error) {
    io.err(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
    return FAILED;
  }
}

interface BackupReport {
  /** The newest migration the copy has run. */
  schema: string;
  tables: Array<{ name: string; rows: number }>;
}

/** Copies the live database at `source` to `target` (which must not exist), checks the copy and reports on it. */
async function backUpSqlite(source: string, target: string, busyTimeoutMs: number): Promise<BackupReport> {
  const partial = `${target}.partial-${process.pid}`;
  try {
    // Without OPEN_CREATE: a path with no database is an error, not a new empty file. VACUUM INTO only reads it.
    const live = await open(source, sqlite3.OPEN_READWRITE);
    try {
      await run(live, `PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
      await run(live, 'VACUUM INTO ?', [partial]);
    } finally {
      await close(live);
    }
    const report = await check(partial);
    const fd = openSync(partial, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(partial, target); // fails, rather than replaces, if <file> appeared meanwhile
    rmSync(partial);
    syncDirectory(dirname(target));
    return report;
  } finally {
    rmSync(partial, { force: true });
  }
}

async function check(file: string): Promise<BackupReport> {
  const copy = await open(file, sqlite3.OPEN_READONLY);
  try {
    const integrity = await all<{ integrity_check: string }>(copy, 'PRAGMA integrity_check');
    if (integrity.length !== 1 || integrity[0].integrity_check !== 'ok') {
      throw new Error(`the copy fails its integrity check: ${integrity.map((row) => row.integrity_check).join('; ')}`);
    }
    const names = await all<{ name: string }>(
      copy,
      `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`,
    );
    if (!names.some(({ name }) => name === 'migrations')) {
      throw new Error("the database holds no migrations table: it is not this service's database");
    }
    const [newest] = await all<{ name: string }>(copy, 'SELECT name FROM migrations ORDER BY id DESC LIMIT 1');
    const tables: BackupReport['tables'] = [];
    for (const { name } of names.filter(({ name }) => !NOT_COUNTED.test(name))) {
      const [{ rows }] = await all<{ rows: number }>(copy, `SELECT count(*) AS rows FROM "${name}"`);
      tables.push({ name, rows });
    }
    return { schema: newest?.name ?? 'no migration run', tables };
  } finally {
    await close(copy);
  }
}

function syncDirectory(directory: string): void {
  const fd = openSync(directory, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function open(file: string, mode: number): Promise<sqlite3.Database> {
  return new Promise((done, fail) => {
    const db = new sqlite3.Database(file, mode, (error) =>
      error ? fail(new Error(`cannot open ${file} (${error.message})`)) : done(db),
    );
  });
}

function run(db: sqlite3.Database, sql: string, params: unknown[] = []): Promise<void> {
  return new Promise((done, fail) => db.run(sql, params, (error) => (error ? fail(error) : done())));
}

function all<T>(db: sqlite3.Database, sql: string): Promise<T[]> {
  return new Promise((done, fail) => db.all(sql, (error, rows) => (error ? fail(error) : done(rows as T[]))));
}

function close(db: sqlite3.Database): Promise<void> {
  return new Promise((done) => db.close(() => done()));
}
