import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions, type MixedList } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source-options';

export interface DatabaseModuleOptions {
  /** The migrations of every feature module, in the order they must run. */
  migrations: MixedList<Function>;
}

/**
 * The one database connection of the application, from `DATABASE_URL`.
 * Feature modules register their TypeORM entities with
 * `TypeOrmModule.forFeature()`; the composition root passes their migrations.
 */
@Module({})
export class DatabaseModule {
  static forRoot({ migrations }: DatabaseModuleOptions): DynamicModule {
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
    await dataSource.runMigrations({ transaction: 'each' });
    return dataSource;
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
}
