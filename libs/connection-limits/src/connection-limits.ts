import type { Server } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { APP_LOGGER, ConnectionGuard, RefusalLog } from '@app/platform';
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
  constructor(
    private readonly settings: ConnectionLimitsSettings,
    @Inject(APP_LOGGER) private readonly logger: Logger,
  ) {
    super();
  }

  guard(server: Server): void {
    limitConnections(server, this.settings.maxConnections);
    const refusals = RefusalLog.of(this.logger);
    // One line (bounded with the refusals') for each connection closed for the requests waiting on it.
    limitPipelining(server, () => {
      if (!refusals.admits('pipelining')) return;
      this.logger.warn(
        { context: 'Connections' },
        `closed a connection with more than ${MAX_WAITING_REQUESTS} requests waiting on it (pipelined, their answers unread)`,
      );
    });
  }
}
