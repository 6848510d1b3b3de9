import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Server } from 'node:http';
import { Drain } from './drain.service';

/** How often idle keep-alive connections are closed while draining. */
const IDLE_SWEEP_MS = 100;

/**
 * On SIGTERM or SIGINT: readiness turns 503 at once and every response carries
 * `Connection: close`; after `delayMs` (time for load balancers to notice) the
 * server stops accepting connections, lets in-flight requests finish, closes
 * the database through the modules' destroy hooks, and the process exits 0.
 * If all that takes longer than `graceMs`, it exits 1 rather than hang.
 */
export function installGracefulShutdown(
  app: NestFastifyApplication,
  { graceMs, delayMs }: { graceMs: number; delayMs: number },
): void {
  const logger = new Logger('Shutdown');
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received: draining (readiness now 503; closing in ${delayMs} ms, grace ${graceMs} ms)`);
    setTimeout(() => {
      logger.error(`still busy after ${graceMs} ms: exiting`);
      process.exit(1);
    }, graceMs).unref();
    app.get(Drain).begin();
    const server = app.getHttpServer() as Server;
    // A connection that goes idle after its last response would otherwise
    // keep server.close() waiting for its keep-alive timeout.
    setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS).unref();
    const delay = new Promise((resolve) => setTimeout(resolve, delayMs));
    delay
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
