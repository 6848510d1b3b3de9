import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { ConfigError } from '../../config/config.error';
import type { AppConfig } from '../../config/app-config';
import type { Settings } from '../../config/settings';
import { limitPerAddress } from './address-share';
import { RefusalLog } from '../../logging/refusal-log';
import type { MetricsService } from '../../metrics/metrics.service';
import { openFileLimit } from './open-file-limit';
import { MAX_WAITING_REQUESTS, limitPipelining } from './pipelining-limit';
import { limitConnections } from './shed-connections';

/** Files kept free of connections: the database and its WAL, the log, outgoing connections, a margin. */
const FILES_BESIDES_CONNECTIONS = 64;

/**
 * The bounds on connections, before any request is read: at most `MAX_CONNECTIONS` open at once, idle and stalled ones
 * shed past 90 % (shed-connections.ts); at most MAX_WAITING_REQUESTS on each, pipelined ones and unread answers
 * included (pipelining-limit.ts). What they close is counted in `<service>_connections_closed_total{reason}`.
 */
export class ConnectionLimits {
  /** The API port's bound, once installed. */
  private apiPort?: { isFull(): boolean };

  private constructor(
    /** Open connections at most, on each port. */
    readonly maxConnections: number,
    /** Open connections at most from one address (a proxy TRUST_PROXY trusts aside), on each port. */
    readonly maxPerAddress: number,
  ) {}

  /**
   * Reads MAX_CONNECTIONS, checked against this process's open-file limit, and MAX_CONNECTIONS_PER_ADDRESS (a quarter
   * of it by default); throws a ConfigError naming the one that is wrong.
   */
  static of(settings: Settings, fileLimit: () => number | undefined = openFileLimit): ConnectionLimits {
    const max = maxConnections(settings, fileLimit());
    return new ConnectionLimits(max, settings.integer('MAX_CONNECTIONS_PER_ADDRESS', Math.ceil(max / 4), 1, max));
  }

  /** What readiness says while the API's port is full of connections none of which can be shed, or `undefined`. */
  problem(): string | undefined {
    return this.apiPort?.isFull()
      ? `the API's port is at MAX_CONNECTIONS (${this.maxConnections} open, none idle)`
      : undefined;
  }

  /**
   * Installs the bounds on each of `servers` (the API's port first, and the monitors' when there is one).
   */
  guard(
    servers: readonly Server[],
    metrics: MetricsService,
    logger: Logger,
    trustProxy: AppConfig['trustProxy'],
  ): void {
    const closed = metrics.counter(
      'connections_closed_total',
      'Connections closed by the connection bounds: pipelining (too many requests waiting on one), shed (idle or stalled past 90 % of MAX_CONNECTIONS), limit (refused at MAX_CONNECTIONS), address (one address past MAX_CONNECTIONS_PER_ADDRESS).',
      ['reason'],
    );
    const refusals = RefusalLog.of(logger);
    for (const [index, server] of servers.entries()) {
      const limit = limitConnections(server, this.maxConnections, (reason) => closed.inc({ reason }));
      if (index === 0) this.apiPort = limit;
      limitPerAddress(server, this.maxPerAddress, trustProxy, () => closed.inc({ reason: 'address' }));
      // One line (bounded with the refusals') for each connection closed for the requests waiting on it.
      limitPipelining(server, () => {
        closed.inc({ reason: 'pipelining' });
        if (!refusals.admits('pipelining')) return;
        logger.warn(
          { context: 'Connections' },
          `closed a connection with more than ${MAX_WAITING_REQUESTS} requests waiting on it (pipelined, their answers unread)`,
        );
      });
    }
  }
}

/**
 * `MAX_CONNECTIONS`, which must leave room below the open-file limit: past that limit every new connection fails,
 * health checks included. By default the limit less that room, at most 10,000 (1,000 where the limit is unknown).
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
