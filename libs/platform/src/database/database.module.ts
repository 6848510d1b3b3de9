import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import type { Feature } from '../features/feature';
import { dataSourceOptions } from './data-source-options';

/**
 * The one database connection of the application, from `DATABASE_URL`, with
 * the schema every feature's migrations make. Feature modules register their
 * TypeORM entities with `TypeOrmModule.forFeature()`.
 */
@Module({})
export class DatabaseModule {
  static forRoot(features: readonly Feature[]): DynamicModule {
    const migrations = features.flatMap((feature) => feature.migrations);
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...dataSourceOptions(config.database, migrations, config.databaseTimeoutMs),
            autoLoadEntities: true,
            // Fail fast on SQLite; give a PostgreSQL server a few seconds to come up.
            retryAttempts: config.database.type === 'postgres' ? 5 : 0,
            retryDelay: 2_000,
          }),
          dataSourceFactory: async (options) => openDataSource(options as DataSourceOptions),
        }),
      ],
    };
  }
}

/** Connects, sets SQLite's durability, and brings the schema up to date. */
export async function openDataSource(options: DataSourceOptions): Promise<DataSource> {
  const dataSource = await new DataSource(options).initialize();
  try {
    if (options.type === 'sqlite') {
      // WAL (set by TypeORM) with FULL: a commit is fsynced before it is
      // acknowledged, so a 201 survives a crash of the process or the machine.
      await dataSource.query('PRAGMA synchronous = FULL');
    }
    await migrate(dataSource);
    return dataSource;
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
}

/** Arbitrary, fixed: the advisory lock every instance takes to migrate (PostgreSQL). */
const MIGRATION_LOCK = 7_215_364_901;

/**
 * Runs pending migrations. On PostgreSQL several stateless instances may start
 * at once on one database: a session-level advisory lock lets one migrate while
 * the others wait, then find nothing left to do. (The race is narrow: four
 * processes started together did not hit it in test/instances.e2e-spec.ts, so
 * the lock is a guard, not a fix for an observed failure.)
 */
async function migrate(dataSource: DataSource): Promise<void> {
  if (dataSource.options.type !== 'postgres') {
    await dataSource.runMigrations({ transaction: 'each' });
    return;
  }
  const lock = dataSource.createQueryRunner();
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.release();
  }
}
