import { registerAs } from '@nestjs/config';
import { ConfigError, Settings } from '@app/platform';
import type { ConfiguredKey } from '../application/configured-api-keys';
import { configuredKeysOf } from './api-keys.setting';

/** The auth module's own variables. */
export class AuthSettings {
  private constructor(
    /** The keys of `API_KEYS`, checked and named (none when unset). */
    readonly apiKeys: readonly ConfiguredKey[],
    /** How often the keys stored in the database are read again: a revoked key stops working within this. */
    readonly cacheSeconds: number,
    /** How long the keys last read stay in force while the database cannot be read: then they are refused (503). */
    readonly staleSeconds: number,
    /** Requests with an invalid API key allowed per client address and minute; 0 turns the limit off. */
    readonly failuresPerMinute: number,
  ) {}

  /** Reads and checks them; throws a ConfigError naming the variable. */
  static of(settings: Settings): AuthSettings {
    const cacheSeconds = settings.integer('API_KEY_CACHE_SECONDS', 10, 1, 30);
    const staleSeconds = settings.integer('API_KEY_STALE_SECONDS', 60, 2, 3_600);
    if (staleSeconds <= cacheSeconds) {
      throw new ConfigError(
        'API_KEY_STALE_SECONDS',
        `must be longer than API_KEY_CACHE_SECONDS (${staleSeconds} <= ${cacheSeconds})`,
      );
    }
    return new AuthSettings(
      configuredKeysOf(settings.list('API_KEYS')),
      cacheSeconds,
      staleSeconds,
      settings.integer('AUTH_FAILURES_PER_MINUTE', 60, 0, 1_000_000),
    );
  }
}

/** These settings as Nest's configuration names them (`auth`): read from the environment when the application starts. */
export const authConfig = registerAs('auth', (): AuthSettings => AuthSettings.of(new Settings(process.env)));
