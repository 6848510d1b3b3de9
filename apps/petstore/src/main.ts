// First: the modules imported after it are compiled through Node's compile cache.
import './compile-cache';
import './refuse-inspector-signal';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createHttpApplication, installGracefulShutdown, loadConfig, logStartupFailure } from '@app/platform';
import { AppModule } from './app.module';
import { publicBaseUrlOf } from './public-base-url';
import { PETSTORE_SERVICE } from './service-info';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await createHttpApplication(AppModule.register(config), config);
  const logger = new Logger('Bootstrap');
  installGracefulShutdown(app, { graceMs: config.shutdownGraceMs, delayMs: config.shutdownDelayMs });
  await app.listen(config.port, config.host);
  // The bound address, not the configured one: PORT=0 picks a free port.
  logger.log(
    `${PETSTORE_SERVICE.title} listening on ${await app.getUrl()} (public base ${publicBaseUrlOf(app, config)})`,
  );
}

bootstrap().catch((error: unknown) => {
  logStartupFailure(error);
  process.exit(1);
});
