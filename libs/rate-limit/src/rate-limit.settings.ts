import { registerAs } from '@nestjs/config';
import { ConfigError, Settings } from '@app/platform';

/** Rate limiting's own variables. */
export class RateLimitSettings {
  private constructor(
    /** Requests per minute per API key; 0 turns rate limiting off. */
    readonly perMinute: number,
    /** Where the instances of a fleet count their limits together; per instance when unset. */
    readonly redis?: { readonly url: string; readonly keyPrefix?: string },
  ) {}

  /** Reads and checks them; throws a ConfigError naming the variable. */
  static of(settings: Settings): RateLimitSettings {
    return new RateLimitSettings(settings.integer('RATE_LIMIT_PER_MINUTE', 3_000, 0, 10_000_000), redisOf(settings));
  }
}

function redisOf(settings: Settings): RateLimitSettings['redis'] {
  const url = settings.text('REDIS_URL');
  const keyPrefix = settings.text('REDIS_KEY_PREFIX');
  if (url === undefined) {
    if (keyPrefix !== undefined) throw new ConfigError('REDIS_KEY_PREFIX', 'needs REDIS_URL');
    return undefined;
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['redis:', 'rediss:'].includes(parsed.protocol) || !parsed.hostname) {
    // The URL may carry a password: it is not echoed.
    throw new ConfigError('REDIS_URL', 'must be a redis://host:port or rediss://host:port URL');
  }
  if (keyPrefix !== undefined && !/^[\x21-\x7e]{1,64}$/.test(keyPrefix)) {
    throw new ConfigError(
      'REDIS_KEY_PREFIX',
      `must be 1 to 64 printable characters without spaces (got "${keyPrefix}")`,
    );
  }
  return { url, keyPrefix };
}

/** These settings as Nest's configuration names them (`rateLimit`): read from the environment when the application starts. */
export const rateLimitConfig = registerAs('rateLimit', (): RateLimitSettings =>
  RateLimitSettings.of(new Settings(process.env)),
);
