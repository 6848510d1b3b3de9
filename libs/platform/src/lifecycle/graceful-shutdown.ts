import { type INestApplication, Logger } from '@nestjs/common';

/**
 * On SIGTERM or SIGINT: stop accepting connections, let in-flight requests
 * finish, close the database (the modules' destroy hooks), then exit 0. If that
 * takes longer than `graceMs`, exit 1 rather than hang.
 */
export function installGracefulShutdown(app: INestApplication, graceMs: number): void {
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
