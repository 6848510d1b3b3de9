import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Server } from 'node:http';
import { Drain } from './drain.service';

/** How often idle keep-alive connections are closed while draining. */
const IDLE_SWEEP_MS = 100;

/**
 * On SIGTERM or SIGINT: stop accepting connections, let in-flight requests
 * finish (each answered with `Connection: close`), close the database through
 * the modules' destroy hooks, then exit 0. If that takes longer than
 * `graceMs`, exit 1 rather than hang.
 */
export function installGracefulShutdown(app: NestFastifyApplication, graceMs: number): void {
  const logger = new Logger('Shutdown');
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal} received: draining in-flight requests (grace ${graceMs} ms)`);
    setTimeout(() => {
      logger.error(`still busy after ${graceMs} ms: exiting`);
      process.exit(1);
    }, graceMs).unref();
    app.get(Drain).begin();
    const server = app.getHttpServer() as Server;
    // A connection that goes idle after its last response would otherwise
    // keep server.close() waiting for its keep-alive timeout.
    setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS).unref();
    app.close().then(
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
