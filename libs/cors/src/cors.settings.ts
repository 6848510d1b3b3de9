import { ConfigError, withoutCredentials, type Settings } from '@app/platform';

/** CORS's own variable. */
export class CorsSettings {
  private constructor(
    /** Origins allowed; empty turns CORS off, `['*']` allows any. */
    readonly origins: readonly string[],
  ) {}

  /** Reads and checks CORS_ORIGINS; throws a ConfigError naming it. */
  static of(settings: Settings): CorsSettings {
    return new CorsSettings(originsOf(settings));
  }
}

function originsOf(settings: Settings): string[] {
  const origins = settings.list('CORS_ORIGINS');
  if (origins.includes('*')) {
    if (origins.length > 1) throw new ConfigError('CORS_ORIGINS', 'must be * alone or a list of origins');
    return origins;
  }
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) {
      throw new ConfigError(
        'CORS_ORIGINS',
        `entries must be origins like https://app.example.com (got "${withoutCredentials(origin)}")`,
      );
    }
  }
  return origins;
}
