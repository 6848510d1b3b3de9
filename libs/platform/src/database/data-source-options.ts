import type { DataSourceOptions, MixedList } from 'typeorm';
import type { DatabaseLocation } from '../config/database-url';

/** How long a SQLite write waits for another writer's lock before failing. */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/**
 * TypeORM options for either database. The schema comes only from migrations,
 * run at startup; `synchronize` stays off.
 */
export function dataSourceOptions(
  location: DatabaseLocation,
  migrations: MixedList<Function>,
): DataSourceOptions {
  const common = { synchronize: false, migrationsRun: false, migrations, logging: false } as const;
  if (location.type === 'sqlite') {
    return {
      ...common,
      type: 'sqlite',
      database: location.path,
      enableWAL: true,
      busyTimeout: SQLITE_BUSY_TIMEOUT_MS,
    };
  }
  return { ...common, type: 'postgres', url: location.url, extra: { max: 10 } };
}
