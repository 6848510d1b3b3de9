import { OPEN_CREATE, OPEN_FULLMUTEX, OPEN_READWRITE } from 'sqlite3';
import type { Type } from '@nestjs/common';
import type { DataSourceOptions } from 'typeorm';
import { guardedSqlite3 } from './guarded-sqlite3';
import type { SqliteFileGuard } from './sqlite-file-guard';
import type { DatabaseSettings } from './database.settings';

/**
 * TypeORM options for either database. The schema comes only from migrations,
 * run at startup; `synchronize` stays off. The entities are every table's
 * model, which the migrations make exactly (test/schema.e2e-spec.ts).
 */
export function dataSourceOptions(
  { location, timeoutMs, poolSize }: DatabaseSettings,
  { entities, migrations }: { entities: readonly Type[]; migrations: readonly Type[] },
  fileGuard: SqliteFileGuard,
): DataSourceOptions {
  const common = {
    synchronize: false,
    migrationsRun: false,
    entities: [...entities],
    migrations: [...migrations],
    logging: false,
  };
  if (location.type === 'sqlite') {
    return {
      ...common,
      type: 'sqlite',
      database: location.path,
      driver: guardedSqlite3(fileGuard),
      // The defaults, stated: the guarded driver's Database takes them as given.
      flags: OPEN_READWRITE | OPEN_CREATE | OPEN_FULLMUTEX,
      enableWAL: true,
      // A query waits this long for another process's lock (a backup, say), then fails as unavailable.
      busyTimeout: timeoutMs,
    };
  }
  return {
    ...common,
    type: 'postgres',
    url: location.url,
    // Bounded waits everywhere: for a connection, for the server's answer, for a statement. A connection whose
    // statement was not answered in time is closed, never pooled again: node-postgres closes it in pipeline mode (a
    // connection left open would run the next caller's statements in whatever transaction was open on it).
    connectTimeoutMS: timeoutMs,
    extra: {
      max: poolSize,
      // Statements are sent without waiting for the answer to the one before; those awaited one by one run as
      // without it. What it gives here is the closing of a connection whose answer did not come in time.
      pipeline: true,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: timeoutMs,
      statement_timeout: timeoutMs,
    },
  };
}
