import { DynamicModule, Module, type Type } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { DiscoveryModule, DiscoveryService } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSourceOptions, MigrationInterface } from 'typeorm';
import { ConfigError } from '@app/platform';
import { dataSourceOptions } from './data-source-options';
import { openDataSource } from './open-data-source';
import { SqlClient } from './sql-client';
import { DatabaseFailures } from './database-failures';
import { DatabaseHealth } from './database.health';
import { SqliteFileGuard } from './sqlite-file-guard';
import { WriteProbe } from './write-probe';
import { WriteProbeRecord } from './write-probe.record';
import { DatabaseSettings, databaseConfig } from './database.settings';
import { ModuleTables } from './module-tables';
import { CreateWriteProbe1795400000000 } from './migrations/1795400000000-create-write-probe';
import { PlatformTablesAsTheirEntities1795600000000 } from './migrations/1795600000000-platform-tables-as-their-entities';
import { WriteProbeNamedForItsLibrary1795700000000 } from './migrations/1795700000000-write-probe-named-for-its-library';

/**
 * The database's settings (`database` in Nest's configuration) and the SQLite file's guard: one instance of each for
 * the TypeORM connection and for the database module's services.
 */
@Module({
  imports: [ConfigModule.forFeature(databaseConfig)],
  providers: [
    { provide: DatabaseSettings, useExisting: databaseConfig.KEY },
    { provide: SqliteFileGuard, inject: [DatabaseSettings], useFactory: fileGuardOf },
  ],
  exports: [DatabaseSettings, SqliteFileGuard],
})
class DatabaseConnectionModule {}

/**
 * The one database connection of the application, from `DATABASE_URL`: TypeORM's, with the entities every module
 * registers (`TypeOrmModule.forFeature`, through {@link forFeature}) and the migrations every module provides, run at
 * start. `SqlClient` is how modules reach it (the application layers' UnitOfWork is the events library's: it writes
 * their events too). Readiness' database probe and the error filter's answers to database failures come with it.
 */
@Module({})
export class DatabaseModule {
  /** The connection, once, in the application's root: global, like TypeORM's own root module. */
  static forRoot(): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        DatabaseConnectionModule,
        TypeOrmModule.forRootAsync({
          imports: [DatabaseConnectionModule, DiscoveryModule],
          inject: [DatabaseSettings, SqliteFileGuard, DiscoveryService],
          useFactory: (settings: DatabaseSettings, fileGuard: SqliteFileGuard, discovery: DiscoveryService) => ({
            ...dataSourceOptions(
              settings,
              { entities: [], migrations: ModuleTables.of(discovery.getProviders()).migrations },
              fileGuard,
            ),
            // Every module's entities, as TypeOrmModule.forFeature registers them.
            autoLoadEntities: true,
            // Fail fast on SQLite; give a PostgreSQL server a few seconds to come up.
            retryAttempts: settings.location.type === 'postgres' ? 5 : 0,
            retryDelay: 2_000,
            // A database this process may not write will not become writable by waiting.
            toRetry: (error: unknown) => !(error instanceof ConfigError),
          }),
          // The write probe proves the database writable once the application's modules are ready (DatabaseHealth).
          dataSourceFactory: async (options) => openDataSource(options as DataSourceOptions),
        }),
        DatabaseModule.forFeature({
          entities: [WriteProbeRecord],
          migrations: [
            CreateWriteProbe1795400000000,
            PlatformTablesAsTheirEntities1795600000000,
            WriteProbeNamedForItsLibrary1795700000000,
          ],
        }),
      ],
      providers: [SqlClient, WriteProbe, DatabaseHealth, DatabaseFailures],
      exports: [SqlClient, DatabaseConnectionModule],
    };
  }

  /**
   * A module's tables: the TypeORM entities that model them (`TypeOrmModule.forFeature`) and the migrations that make
   * them, oldest first.
   */
  static forFeature({
    entities = [],
    migrations = [],
  }: {
    entities?: readonly Type[];
    migrations?: ReadonlyArray<Type<MigrationInterface>>;
  }): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forFeature([...entities])],
      providers: [{ provide: ModuleTables, useValue: new ModuleTables(entities, migrations) }],
      exports: [TypeOrmModule],
    };
  }
}

/**
 * A database opened as the service opens it (tables brought up to date by
 * `tables`' migrations, writability proved), outside Nest: for the tests of
 * the migrations themselves (an earlier release's tables, a failing migration).
 * `close()` when done.
 */
export async function openDatabase(
  settings: DatabaseSettings,
  tables: { entities: readonly Type[]; migrations: readonly Type[] },
): Promise<{ sql: SqlClient; close(): Promise<void> }> {
  const options = dataSourceOptions(settings, tables, fileGuardOf(settings));
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
