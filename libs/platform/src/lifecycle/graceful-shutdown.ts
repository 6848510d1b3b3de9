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

/** Signals that mean nothing to this service: logged and ignored, never Node's default (an exit without a drain). */
const IGNORED_SIGNALS = ['SIGHUP', 'SIGUSR2'] as const;

/**
 * On SIGTERM or SIGINT: readiness turns 503 at once and every response carries `Connection: close`; after the signal's
 * `delayMs` (for load balancers to notice) the server stops accepting connections, each connection closes after its
 * current answer or once quiet for QUIET_MS, the modules' destroy hooks close the database, and the process exits 0;
 * after `graceMs`, 1 rather than hang (docs/decisions/0016-connections-stalled-and-at-shutdown.md). A second stop signal
 * (an impatient Ctrl-C, an orchestrator that signals twice) changes nothing; a third exits at once, with status 1.
 * SIGHUP and SIGUSR2 are ignored.
 */
export function installGracefulShutdown(
  app: NestFastifyApplication,
  { graceMs, delayMs }: { graceMs: number; delayMs: Readonly<Record<ShutdownSignal, number>> },
): void {
  const logger = new Logger('Shutdown');
  const server = app.getHttpServer() as Server;
  const connections = OpenConnections.of(server);
  let signals = 0;
  const stop = (signal: ShutdownSignal) => {
    signals++;
    if (signals === 2) {
      logger.warn(`${signal} received again: still draining; a third stop signal exits at once`);
      return;
    }
    if (signals > 2) {
      logger.error(`${signal} received a third time: exiting without finishing the drain`);
      process.exit(1);
    }
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
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  for (const signal of IGNORED_SIGNALS) {
    process.on(signal, () => logger.warn(`${signal} ignored: send SIGTERM to stop the service`));
  }
}

/** Resolves once every connection has ended, closing those quiet for QUIET_MS with no answer in progress. */
function closedWhenQuiet(connections: OpenConnections): Promise<void> {
  return new Promise((resolve) => {
    const sweep = () => {
      const now = Date.now();
      for (const socket of connections) {
        const quiet = now - connections.lastMovedAt(socket, now) >= QUIET_MS;
        if (quiet && !connections.responseOn(socket)) connections.close(socket);
      }
      if (connections.size === 0) return resolve();
      setTimeout(sweep, SWEEP_MS);
    };
    sweep();
  });
}
