import { ConfigError } from './config.error';

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The environment's variables, read as settings: each read checks the value and throws a {@link ConfigError} naming the
 * variable. The core and each library read their own, so no configuration knows another's variables.
 */
export class Settings {
  constructor(private readonly env: Environment) {}

  /** The value trimmed; unset and empty are the same. */
  text(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === '' ? undefined : value;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.text(name);
    if (value === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(value)) {
      throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got "${value}")`);
    }
    return value as T;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.text(name);
    if (value === undefined) return fallback;
    const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${value}")`);
    }
    return parsed;
  }

  /** A comma-separated list, its entries trimmed, the empty ones dropped. */
  list(name: string): string[] {
    return (this.text(name) ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
  }
}
