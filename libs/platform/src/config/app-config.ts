import { randomBytes } from 'node:crypto';
import { ConfigError } from './config.error';
import { parseDatabaseUrl, type DatabaseLocation } from './database-url';

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Shortest API key accepted: shorter ones are guessable. */
export const MIN_API_KEY_LENGTH = 16;

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The whole configuration, read once from the environment and validated at
 * startup. It is also the DI token: inject `AppConfig` wherever a setting is
 * needed; nothing else reads the process environment.
 */
export class AppConfig {
  readonly nodeEnv: NodeEnv;
  readonly host: string;
  readonly port: number;
  /** This deployment's public base address, ending in `/v1`. */
  readonly publicBaseUrl: string;
  readonly database: DatabaseLocation;
  /** Keys accepted as bearer credentials. */
  readonly apiKeys: readonly string[];
  /** Set when no `API_KEYS` were given outside production: the one key then accepted. */
  readonly generatedApiKey?: string;
  readonly logLevel: LogLevel;
  readonly shutdownGraceMs: number;

  private constructor(values: AppConfig) {
    Object.assign(this, values);
    Object.freeze(this);
  }

  /** Validates `env`; throws a {@link ConfigError} naming the first bad variable. */
  static fromEnvironment(env: Environment): AppConfig {
    const nodeEnv = oneOf(env, 'NODE_ENV', NODE_ENVS, 'development');
    const port = integer(env, 'PORT', 3000, 0, 65535);
    const host = nonEmpty(env, 'HOST', '127.0.0.1');
    const configuredKeys = apiKeys(env);
    if (configuredKeys.length === 0 && nodeEnv === 'production') {
      throw new ConfigError('API_KEYS', 'must be set in production (comma-separated keys)');
    }
    const generatedApiKey = configuredKeys.length === 0 ? randomBytes(24).toString('base64url') : undefined;
    return new AppConfig({
      nodeEnv,
      host,
      port,
      publicBaseUrl: publicBaseUrl(env, `http://localhost:${port}/v1`),
      database: parseDatabaseUrl(env.DATABASE_URL ?? 'sqlite:./data/petstore.sqlite'),
      apiKeys: generatedApiKey ? [generatedApiKey] : configuredKeys,
      generatedApiKey,
      logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
      shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    } as AppConfig);
  }
}

function raw(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

function nonEmpty(env: Environment, name: string, fallback: string): string {
  return raw(env, name) ?? fallback;
}

function oneOf<T extends string>(env: Environment, name: string, allowed: readonly T[], fallback: T): T {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

function integer(env: Environment, name: string, fallback: number, min: number, max: number): number {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${value}")`);
  }
  return parsed;
}

function apiKeys(env: Environment): string[] {
  const keys = (env.API_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  keys.forEach((key, index) => {
    // The key itself is never echoed: it may be a real secret with a typo.
    if (key.length < MIN_API_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
      throw new ConfigError(
        'API_KEYS',
        `entry ${index + 1} must be at least ${MIN_API_KEY_LENGTH} printable characters without spaces`,
      );
    }
  });
  return keys;
}

function publicBaseUrl(env: Environment, fallback: string): string {
  const value = raw(env, 'PUBLIC_BASE_URL') ?? fallback;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('PUBLIC_BASE_URL', `must be an absolute http(s) URL (got "${value}")`);
  }
  const path = url.pathname.replace(/\/$/, '');
  if (!['http:', 'https:'].includes(url.protocol) || !path.endsWith('/v1') || url.search || url.hash) {
    throw new ConfigError('PUBLIC_BASE_URL', `must be an http(s) URL whose path ends in /v1 (got "${value}")`);
  }
  return `${url.origin}${path}`;
}
