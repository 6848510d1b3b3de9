import { registerAs } from '@nestjs/config';
import { Settings, type Environment } from '@app/platform';
import { parseDatabaseUrl, type DatabaseLocation } from './database-url';

/**
 * The database's own variables: `DATABASE_URL`, `DATABASE_TIMEOUT_MS`, `DATABASE_TRANSACTION_IDLE_MS` and
 * `DATABASE_POOL_SIZE`.
 */
export class DatabaseSettings {
  private constructor(
    readonly location: DatabaseLocation,
    /**
     * How long a query may wait for a lock or a connection, and a SQLite write for its turn, before the request is
     * answered 503.
     */
    readonly timeoutMs: number,
    /**
     * How long a transaction's work may wait on anything but its own statements before the transaction is rolled back
     * (TransactionFence): on SQLite every other write waits behind an open transaction.
     */
    readonly transactionIdleMs: number,
    /** PostgreSQL: the connections an instance holds at most (its pool); a fleet's instances share the server's. */
    readonly poolSize: number,
  ) {}

  /** Reads and checks them; throws a ConfigError naming the variable. */
  static of(settings: Settings): DatabaseSettings {
    return new DatabaseSettings(
      parseDatabaseUrl(settings.text('DATABASE_URL') ?? 'sqlite:./data/petstore.sqlite'),
      settings.integer('DATABASE_TIMEOUT_MS', 3_000, 100, 600_000),
      settings.integer('DATABASE_TRANSACTION_IDLE_MS', 50, 5, 60_000),
      settings.integer('DATABASE_POOL_SIZE', 10, 1, 1_000),
    );
  }

  /** For tools that open the service's database without serving it (`npm run keys`, `npm run backup`). */
  static fromEnvironment(env: Environment): DatabaseSettings {
    return DatabaseSettings.of(new Settings(env));
  }
}

/** These settings as Nest's configuration names them (`database`): read from the environment when the application starts. */
export const databaseConfig = registerAs('database', (): DatabaseSettings =>
  DatabaseSettings.of(new Settings(process.env)),
);
