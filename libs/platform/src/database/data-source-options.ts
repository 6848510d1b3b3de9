import * as sqlite3 from 'sqlite3';
import type { Type } from '@nestjs/common';
import type { DataSourceOptions } from 'typeorm';
import type { DatabaseLocation } from '../config/database-url';

/**
 * The sqlite3 module as TypeORM should see it. TypeORM always calls
 * `sqlite3.verbose()`, which wraps every database call to capture a stack and
 * `util.inspect` its arguments: a fifth of the CPU of a list request, and SQL
 * parameters copied into error stacks. Its `verbose()` here is a no-op.
 */
const quietSqlite3 = { ...sqlite3, verbose: () => sqlite3 };

/**
 * TypeORM options for either database. The schema comes only from migrations,
 * run at startup; `synchronize` stays off.
 */
export function dataSourceOptions(
  location: DatabaseLocation,
  migrations: readonly Type[],
  timeoutMs: number,
): DataSourceOptions {
  const common = { synchronize: false, migrationsRun: false, migrations: [...migrations], logging: false };
  if (location.type === 'sqlite') {
    return {
      ...common,
      type: 'sqlite',
      database: location.path,
      driver: quietSqlite3,
      enableWAL: true,
      // A query waits this long for another process's lock (a backup, say), then fails as unavailable.
      busyTimeout: timeoutMs,
    };
  }
  return {
    ...common,
    type: 'postgres',
    url: location.url,
    // Bounded waits everywhere: for a connection, for the server's answer, for a statement.
    connectTimeoutMS: timeoutMs,
    extra: { max: 10, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs, statement_timeout: timeoutMs },
  };
}
