import { Logger, type Type } from '@nestjs/common';
import { AppConfig, createHttpApplication, installGracefulShutdown } from '@app/platform';
import { AppModule } from './app.module';
import { publicBaseUrlOf } from './public-base-url';
import { PETSTORE_SERVICE } from './service-info';

/**
 * Starts the service on the settings of the environment, with `features` of a harness's own besides the service's
 * (bench/service-with-subscriber.mjs adds one), and logs where it listens.
 */
export async function serve(...features: Type[]): Promise<void> {
  const app = await createHttpApplication(features.length > 0 ? AppModule.withFeatures(...features) : AppModule);
  const config = app.get(AppConfig);
  const logger = new Logger('Bootstrap');
  installGracefulShutdown(app, { graceMs: config.shutdownGraceMs, delayMs: config.shutdownDelayMs });
  await app.listen(config.port, config.host);
  // The bound address, not the configured one: PORT=0 picks a free port.
  logger.log(
    `${PETSTORE_SERVICE.title} listening on ${await app.getUrl()} (public base ${publicBaseUrlOf(app, config)})`,
  );
}
