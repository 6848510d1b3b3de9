import { ConfigError, type Settings } from '@app/platform';
import { openFileLimit } from './open-file-limit';

/** Files kept free of connections: the database and its WAL, the log, outgoing connections, a margin. */
const FILES_BESIDES_CONNECTIONS = 64;

/** The connection limits' own variable. */
export class ConnectionLimitsSettings {
  private constructor(
    /** Open connections at most; idle and stalled ones are shed first as it nears (shed-connections.ts). */
    readonly maxConnections: number,
  ) {}

  /** Reads and checks it against this process's open-file limit; throws a ConfigError naming the variable. */
  static of(settings: Settings, fileLimit: () => number | undefined = openFileLimit): ConnectionLimitsSettings {
    return new ConnectionLimitsSettings(maxConnections(settings, fileLimit()));
  }
}

/**
 * `MAX_CONNECTIONS`, which must leave room below the open-file limit: past
 * that limit every new connection fails, health checks included. By default
 * the limit less that room, at most 10,000 (1,000 where the limit is unknown).
 */
function maxConnections(settings: Settings, fileLimit: number | undefined): number {
  const ceiling = fileLimit === undefined ? 1_000_000 : fileLimit - FILES_BESIDES_CONNECTIONS;
  if (ceiling < 16) {
    throw new ConfigError(
      'MAX_CONNECTIONS',
      `cannot be served: the open-file limit is ${fileLimit}; raise it (ulimit -n)`,
    );
  }
  const fallback = fileLimit === undefined ? 1_000 : Math.min(10_000, ceiling);
  const value = settings.text('MAX_CONNECTIONS');
  if (value !== undefined && /^\d+$/.test(value) && Number(value) > ceiling && fileLimit !== undefined) {
    throw new ConfigError(
      'MAX_CONNECTIONS',
      `must leave ${FILES_BESIDES_CONNECTIONS} of the ${fileLimit} files this process may open (ulimit -n) free: at most ${ceiling} (got "${value}")`,
    );
  }
  return settings.integer('MAX_CONNECTIONS', fallback, 16, ceiling);
}
