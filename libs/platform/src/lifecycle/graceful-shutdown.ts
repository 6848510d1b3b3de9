import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Server as NetServer } from 'node:net';
import type { Server } from 'node:http';
import type { ShutdownSignal } from '../config/app-config';
import { Draining } from './draining';
import { OpenConnections } from './open-connections';

/** How often the connections are looked at while the server stops. */
const SWEEP_MS = 50;
/**
 * An idle kept-alive connection is closed once nothing has moved on it for this long: HTTP/1.1 can tell a client only
 * in an answer (`Connection: close`), so connections in use close after their answer, and only long quiet ones are cut.
 */
const QUIET_MS = 500;

/**
 * On SIGTERM or SIGINT: readiness turns 503 at once and every response carries `Connection: close`; after the signal's
 * `delayMs` (for load balancers to notice) the server stops accepting connections, each connection closes after its
 * current answer or once quiet for QUIET_MS, the modules' destroy hooks close the database, and the process exits 0;
 * after `graceMs`, 1 rather than hang (docs/decisions/0016-connections-stalled-and-at-shutdown.md).
 */
export function installGracefulShutdown(
  app: NestFastifyApplication,
  { graceMs, delayMs }: { graceMs: number; delayMs: Readonly<Record<ShutdownSignal, number>> },
): void {
  const logger = new Logger('Shutdown');
  const server = app.getHttpServer() as Server;
  const connections = OpenConnections.of(server);
  let stopping = false;
  const stop = (signal: ShutdownSignal) => {
    if (stopping) return;
    stopping = true;
    const delay = delayMs[signal];
    logger.log(`${signal} received: draining (readiness now 503; closing in ${delay} ms, grace ${graceMs} ms)`);
    setTimeout(() => {
      logger.error(`still busy after ${graceMs} ms: exiting`);
      process.exit(1);
    }, graceMs).unref();
    app.get(Draining).begin();
    new Promise((resolve) => setTimeout(resolve, delay))
      .then(() => {
        // http.Server#close() would also close every idle connection at once, a fresh one whose request is on its way
        // included: stop listening only, and let the connections end as described above.
        NetServer.prototype.close.call(server);
        return closedWhenQuiet(connections);
      })
      .then(() => app.close())
      .then(
        () => {
          logger.log('stopped cleanly');
          process.exit(0);
        },
        (error: unknown) => {
          logger.error(`shutdown failed: ${String(error)}`, (error as Error)?.stack);
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/** Resolves once every connection has ended, closing those quiet for QUIET_MS with no answer in progress. */
function closedWhenQuiet(connections: OpenConnections): Promise<void> {
  return new Promise((resolve) => {
    const sweep = () => {
      const now = Date.now();
      for (const socket of connections) {
        const quiet = now - connections.lastMovedAt(socket, now) >= QUIET_MS;
        if (quiet && !OpenConnections.responseOn(socket)) connections.close(socket);
      }
      if (connections.size === 0) return resolve();
      setTimeout(sweep, SWEEP_MS);
    };
    sweep();
  });
}
