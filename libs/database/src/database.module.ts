import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, QueryFailedError, type DataSourceOptions } from 'typeorm';
import { isReadOnly } from './driver-errors';
import { dataSourceOptions } from './data-source-options';
import { SqlClient } from './sql-client';
import { connect } from './connect';
import { DatabaseFailures } from './database-failures';
import { DatabaseHealth } from './database.health';
import { SqliteFileGuard } from './sqlite-file-guard';
import { WriteProbe } from './write-probe';
import { ConfigError, type Schema } from '@app/platform';
import { DatabaseSettings } from './database.settings';

/**
 * The one database connection of the application, from `DATABASE_URL`, with
 * the schema every part of the composition brings: the tables its migrations
 * make and the entities it declares (`defineFeature({ entities })`), which
 * modules reach through `SqlClient.repository(Entity)`. (The application
 * layers' UnitOfWork is the events library's: it writes their events too.) It registers readiness' database probe
 * and the error filter's answers to database failures with the core.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(settings: DatabaseSettings, schema: Schema): DynamicModule {
    const fileGuard = fileGuardOf(settings);
    const probe = new WriteProbe();
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...dataSourceOptions(settings, schema, fileGuard),
            // Fail fast on SQLite; give a PostgreSQL server a few seconds to come up.
            retryAttempts: settings.location.type === 'postgres' ? 5 : 0,
            retryDelay: 2_000,
            // A database this process may not write will not become writable by waiting.
            toRetry: (error: unknown) => !(error instanceof ConfigError),
          }),
          dataSourceFactory: async (options) => openDataSource(options as DataSourceOptions, probe),
        }),
      ],
      providers: [
        SqlClient,
        { provide: SqliteFileGuard, useValue: fileGuard },
        { provide: DatabaseSettings, useValue: settings },
        { provide: WriteProbe, useValue: probe },
        // Each registers itself with the core: readiness' probe, and the error filter's answers to the database's failures.
        DatabaseHealth,
        DatabaseFailures,
      ],
      exports: [SqlClient],
    };
  }
}

/**
 * The service's database, opened as the service opens it (schema brought up
 * to date, writability proved), for a tool that runs beside the service, such
 * as `npm run keys`. `close()` when done.
 */
export async function openDatabase(
  settings: DatabaseSettings,
  schema: Schema,
): Promise<{ sql: SqlClient; close(): Promise<void> }> {
  const options = dataSourceOptions(settings, schema, fileGuardOf(settings));
  const dataSource = await openDataSource(options, new WriteProbe());
  const sql = new SqlClient(dataSource, undefined, undefined, settings);
  return {
    sql,
    async close() {
      await sql.onApplicationShutdown();
      await dataSource.destroy();
    },
  };
}

/** Used by the SQLite driver and by readiness; never recorded, so never "detached", on PostgreSQL. */
function fileGuardOf({ location }: DatabaseSettings): SqliteFileGuard {
  return new SqliteFileGuard(location.type === 'sqlite' ? location.path : '');
}

/**
 * Connects, sets SQLite's durability, brings the schema up to date, and
 * proves that this process can write there: a read-only file or database
 * stops the startup with a message naming DATABASE_URL, instead of a service
 * that says it is ready and answers every write with an error.
 */
export async function openDataSource(options: DataSourceOptions, probe: WriteProbe): Promise<DataSource> {
  let dataSource: DataSource | undefined;
  try {
    dataSource = await connect(options);
    await migrate(dataSource);
    await probe.prove(dataSource);
    return dataSource;
  } catch (error) {
    await dataSource?.destroy();
    if (isReadOnly(error)) {
      const where = options.type === 'sqlite' ? `the SQLite file ${String(options.database)}` : 'a PostgreSQL database';
      throw new ConfigError('DATABASE_URL', `names ${where} that this process cannot write (${messageOf(error)})`);
    }
    throw error;
  }
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
