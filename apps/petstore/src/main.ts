import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigError, createHttpApplication, installGracefulShutdown, loadConfig } from '@app/platform';
import { AppModule } from './app.module';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await createHttpApplication(AppModule.register(config), config);
  const logger = new Logger('Bootstrap');
  installGracefulShutdown(app, { graceMs: config.shutdownGraceMs, delayMs: config.shutdownDelayMs });
  if (config.generatedApiKey) {
    logger.warn(`API_KEYS is not set: this run accepts the generated development key ${config.generatedApiKey}`);
  }
  await app.listen(config.port, config.host);
  // The bound address, not the configured one: PORT=0 picks a free port.
  logger.log(`Pet Store listening on ${await app.getUrl()} (public base ${config.publicBaseUrl})`);
}

bootstrap().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`Invalid configuration: ${error.message}`);
  } else {
    console.error('Pet Store failed to start:', error);
  }
  process.exit(1);
});
