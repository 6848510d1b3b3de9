import { Logger } from '@nestjs/common';
import { createHttpApplication, installGracefulShutdown, loadConfig, type Part } from '@app/platform';
import { AppModule } from './app.module';
import { COMPOSITION } from './composition';
import { publicBaseUrlOf } from './public-base-url';
import { PETSTORE_SERVICE } from './service-info';

/**
 * Starts the service on the settings of the environment, with `parts` (the composition; a harness of the built
 * service adds a module of its own, as bench/service-with-subscriber.mjs does), and logs where it listens.
 */
export async function serve(parts: readonly Part[] = COMPOSITION): Promise<void> {
  const config = loadConfig();
  const app = await createHttpApplication(AppModule.register(config, parts), config);
  const logger = new Logger('Bootstrap');
  installGracefulShutdown(app, { graceMs: config.shutdownGraceMs, delayMs: config.shutdownDelayMs });
  await app.listen(config.port, config.host);
  // The bound address, not the configured one: PORT=0 picks a free port.
  logger.log(
    `${PETSTORE_SERVICE.title} listening on ${await app.getUrl()} (public base ${publicBaseUrlOf(app, config)})`,
  );
}
