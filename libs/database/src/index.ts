export { constraintViolationOf } from './driver-errors';
export { AlreadyExistsError, DATABASE_ERROR_CODES, InvalidReferenceError } from './database.errors';
export { BACKUP_USAGE, runBackupCommand } from './backup.command';
export { DatabaseModule, openDatabase, schemaOf } from './database.module';
export { DatabaseSettings } from './database.settings';
export { SqlClient } from './sql-client';
export { recreateSqliteTable } from './recreate-sqlite-table';
export { generatedKeyColumn } from './rowid-keys';
export { SqlDialect } from './sql-dialect';
