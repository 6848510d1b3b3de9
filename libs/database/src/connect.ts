import { DataSource, type DataSourceOptions } from 'typeorm';
import { useRowidKeys } from './rowid-keys';

/**
 * Opens a connection (a DataSource) the way every connection of the service
 * is opened, the reading one and the writing one alike: its entities told that
 * SQLite's keys are rowids, and on SQLite WAL (TypeORM sets it) with
 * `synchronous = FULL`, so that a commit is fsynced before it is acknowledged
 * and a 201 survives a crash of the process or the machine, and the statement
 * journal of a transaction's savepoint in memory, not a temporary file (half
 * the CPU a savepoint costs, decision 0021).
 */
export async function connect(options: DataSourceOptions): Promise<DataSource> {
  const dataSource = await new DataSource(options).initialize();
  try {
    useRowidKeys(dataSource);
    if (options.type === 'sqlite') {
      await dataSource.query('PRAGMA synchronous = FULL');
      await dataSource.query('PRAGMA temp_store = MEMORY');
    }
    return dataSource;
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
}
