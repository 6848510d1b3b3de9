import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { APP_LOGGER, ReadinessCheck } from '@app/platform';
import type { Logger } from 'pino';
import { StoredApiKeys } from '../application/stored-api-keys';
import { AuthSettings } from '../config/auth.settings';

/**
 * The keys of the database read again every API_KEY_CACHE_SECONDS, once the auth module has read them at start
 * (`start()`). When the database does not answer, the keys last read stay in force (StoredApiKeys says for how long),
 * it is said once per episode, and readiness is 503: a revocation made meanwhile would go unseen.
 */
@Injectable()
@ReadinessCheck()
export class StoredKeysRefresh implements ReadinessCheck, OnApplicationShutdown {
  readonly name = 'api-keys';
  private timer?: NodeJS.Timeout;
  private failing = false;

  constructor(
    private readonly stored: StoredApiKeys,
    private readonly settings: AuthSettings,
    @Inject(APP_LOGGER) private readonly logger: Logger,
  ) {}

  problem(): string | undefined {
    return this.failing ? 'the API keys cannot be read from the database' : undefined;
  }

  start(): void {
    this.timer = setTimeout(() => void this.refresh(), this.settings.cacheSeconds * 1000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearTimeout(this.timer);
  }

  private async refresh(): Promise<void> {
    try {
      await this.stored.refresh();
      if (this.failing) this.logger.info({ context: 'ApiKeys' }, 'API keys read from the database again');
      this.failing = false;
    } catch (error) {
      if (!this.failing) {
        this.logger.warn(
          { context: 'ApiKeys', err: error },
          `could not read the API keys from the database: the keys last read stay in force for API_KEY_STALE_SECONDS (${this.settings.staleSeconds} s), readiness is 503`,
        );
      }
      this.failing = true;
    }
    this.start();
  }
}
