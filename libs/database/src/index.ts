import { defineCapability } from '@app/platform';
import { DATABASE_ERROR_CODES } from './database.errors';
import { DatabaseModule } from './database.module';
import { DatabaseSettings } from './database.settings';
import { CreateWriteProbe1795400000000 } from './migrations/1795400000000-create-write-probe';
import { PlatformTablesAsTheirEntities1795600000000 } from './migrations/1795600000000-platform-tables-as-their-entities';
import { WriteProbeNamedForItsLibrary1795700000000 } from './migrations/1795700000000-write-probe-named-for-its-library';
import { WriteProbeRecord } from './write-probe.record';

export { constraintViolationOf, isDatabaseUnavailable, isSerializationFailure } from './driver-errors';
export { AlreadyExistsError, InvalidReferenceError } from './database.errors';
export { BACKUP_USAGE, runBackupCommand } from './backup.command';
export { openDatabase } from './database.module';
export { EXIT, runDatabaseCommand } from './database-command';
export { DatabaseSettings };
export { SqlClient } from './sql-client';
export { ConcurrentChange, PendingUnit } from './unit-writes';
export { TransactionAbandoned } from './transaction-fence';
export type { TransactionOnDemand } from './transaction-on-demand';
export { int64Of } from './int64-column';
export { recreateSqliteTable } from './recreate-sqlite-table';
export { renameTable, renameTableBack } from './rename-table';
export { generatedKeyColumn } from './rowid-keys';
export { SqlDialect } from './sql-dialect';

/** The database as the application composes it: the one connection, with every part's tables, and its write probe. */
export const databaseCapability = defineCapability({
  name: 'database',
  settings: (config) => DatabaseSettings.of(config.settings),
  module: (settings, schema) => DatabaseModule.forRoot(settings, schema),
  entities: [WriteProbeRecord],
  migrations: [
    CreateWriteProbe1795400000000,
    PlatformTablesAsTheirEntities1795600000000,
    WriteProbeNamedForItsLibrary1795700000000,
  ],
  errorCodes: DATABASE_ERROR_CODES,
});
