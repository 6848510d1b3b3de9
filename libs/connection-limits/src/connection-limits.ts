import type { Server } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import { APP_LOGGER, ConnectionGuard, MetricsService, RefusalLog } from '@app/platform';
import { ConnectionLimitsSettings } from './connection-limits.settings';
import { MAX_WAITING_REQUESTS, limitPipelining } from './pipelining-limit';
import { limitConnections } from './shed-connections';

/**
 * The core's ConnectionGuard: at most MAX_CONNECTIONS open at once, idle and
 * stalled ones shed past 90 % (shed-connections.ts); at most
 * MAX_WAITING_REQUESTS on each, pipelined ones and unread answers included
 * (pipelining-limit.ts).
 */
@Injectable()
export class ConnectionLimits extends ConnectionGuard {
  /** `<service>_connections_closed_total{reason}`: what the bounds closed, by which bound. */
  private readonly closed: Counter<'reason'>;

  constructor(
    private readonly settings: ConnectionLimitsSettings,
    @Inject(APP_LOGGER) private readonly logger: Logger,
    metrics: MetricsService,
  ) {
    super();
    this.closed = metrics.counter(
      'connections_closed_total',
      'Connections closed by the connection bounds: pipelining (too many requests waiting on one), shed (idle or stalled past 90 % of MAX_CONNECTIONS), limit (refused at MAX_CONNECTIONS).',
      ['reason'],
    );
  }

  guard(server: Server): void {
    limitConnections(server, this.settings.maxConnections, (reason) => this.closed.inc({ reason }));
    const refusals = RefusalLog.of(this.logger);
    // One line (bounded with the refusals') for each connection closed for the requests waiting on it.
    limitPipelining(server, () => {
      this.closed.inc({ reason: 'pipelining' });
      if (!refusals.admits('pipelining')) return;
      this.logger.warn(
        { context: 'Connections' },
        `closed a connection with more than ${MAX_WAITING_REQUESTS} requests waiting on it (pipelined, their answers unread)`,
      );
    });
  }
}
