import { DataSource, QueryFailedError, type DataSourceOptions } from 'typeorm';
import { ConfigError } from '@app/platform';
import { connect } from './connect';
import { isReadOnly } from './driver-errors';
import type { WriteProbe } from './write-probe';

/**
 * Connects, sets SQLite's durability, brings the schema up to date, and, given a probe, proves that this process can
 * write there: a read-only file or database stops the startup with a message naming DATABASE_URL
 * ({@link writableOrRefused}), instead of a service that says it is ready and answers every write with an error.
 */
export async function openDataSource(options: DataSourceOptions, probe?: WriteProbe): Promise<DataSource> {
  let dataSource: DataSource | undefined;
  try {
    dataSource = await connect(options);
    await migrate(dataSource);
    if (probe) await probe.prove(dataSource);
    return dataSource;
  } catch (error) {
    await dataSource?.destroy();
    throw refusalOf(error, options);
  }
}

/** `work` on the database, with a read-only database's failure as the ConfigError of DATABASE_URL. */
export async function writableOrRefused(work: () => Promise<void>, options: DataSourceOptions): Promise<void> {
  try {
    await work();
  } catch (error) {
    throw refusalOf(error, options);
  }
}

function refusalOf(error: unknown, options: DataSourceOptions): unknown {
  if (!isReadOnly(error)) return error;
  const where = options.type === 'sqlite' ? `the SQLite file ${String(options.database)}` : 'a PostgreSQL database';
  return new ConfigError('DATABASE_URL', `names ${where} that this process cannot write (${messageOf(error)})`);
}

function messageOf(error: unknown): string {
  return error instanceof QueryFailedError ? String(error.driverError?.message ?? error.message) : String(error);
}

/** Arbitrary, fixed: the advisory lock every instance takes to migrate (PostgreSQL). */
const MIGRATION_LOCK = 7_215_364_901;

/**
 * Runs pending migrations, all in one transaction: if any fails, none is kept,
 * and the database stays what the release before left, which that release
 * still opens (a rollback needs no restore; test/upgrades.e2e-spec.ts makes a
 * migration fail halfway). On PostgreSQL several stateless instances may start
 * at once on one database: a session-level advisory lock lets one migrate while
 * the others wait, then find nothing left to do. (The race is narrow: four
 * processes started together did not hit it in test/slow/instances.e2e-spec.ts, so
 * the lock is a guard, not a fix for an observed failure.)
 */
async function migrate(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'postgres') {
    await dataSource.runMigrations({ transaction: 'all' });
    return;
  }
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await dataSource.runMigrations({ transaction: 'all' });
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.release();
  }
}
