import { isIP } from 'node:net';
import { API_PREFIX } from './api-prefix';
import { ConfigError } from './config.error';
import { openFileLimit } from './open-file-limit';
import { parseDatabaseUrl, type DatabaseLocation } from './database-url';

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const ON_OFF = ['on', 'off'] as const;

export type ShutdownSignal = 'SIGTERM' | 'SIGINT';

/**
 * SHUTDOWN_DELAY_MS when unset, on SIGTERM in production: the time a load
 * balancer checking readiness every second or two takes to see two failures
 * and stop sending (with the check's own timeout and some jitter), so that a
 * rolling restart with the defaults loses no request (docs/operations.md).
 */
export const PRODUCTION_SHUTDOWN_DELAY_MS = 5_000;

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
  /** Where `/health/*` and `/metrics` are served instead of the API's port, when MANAGEMENT_PORT is set. */
  readonly management?: { readonly host: string; readonly port: number };
  /**
   * This deployment's public base address, ending in `/v1`; when unset, the
   * document's server is the relative `/v1` and the startup line prints the
   * bound address (see publicBaseUrlOf()).
   */
  readonly publicBaseUrl?: string;
  readonly database: DatabaseLocation;
  /** How long a query may wait for a lock or a connection before the request is answered 503. */
  readonly databaseTimeoutMs: number;
  /** The entries of `API_KEYS`, as given: the auth module reads and checks them. */
  readonly apiKeys: readonly string[];
  readonly logLevel: LogLevel;
  readonly shutdownGraceMs: number;
  /**
   * How long a shutdown keeps serving (readiness 503) before it stops
   * accepting connections, by the signal that started it: SHUTDOWN_DELAY_MS for
   * both when set; otherwise, on SIGTERM in production,
   * {@link PRODUCTION_SHUTDOWN_DELAY_MS}, and none on SIGINT (Ctrl-C).
   */
  readonly shutdownDelayMs: Readonly<Record<ShutdownSignal, number>>;
  /** The deployments the OpenAPI document lists as servers, each ending in `/v1`. */
  readonly servers: { readonly production?: string; readonly staging?: string };
  /** Requests per minute per API key; 0 turns rate limiting off. */
  readonly rateLimitPerMinute: number;
  /** Origins allowed by CORS; empty turns CORS off, `['*']` allows any. */
  readonly corsOrigins: readonly string[];
  readonly timeouts: { readonly headersMs: number; readonly requestMs: number; readonly keepAliveMs: number };
  /** How long the answer to a request with an Idempotency-Key is kept for its retries. */
  readonly idempotencyTtlHours: number;
  /** Open connections at most; idle ones are closed first as it nears (see connection-limit.ts). */
  readonly maxConnections: number;
  /** How often the keys stored in the database are read again: a revoked key stops working within this. */
  readonly apiKeyCacheSeconds: number;
  /** How long the keys last read stay in force while the database cannot be read: then they are refused (503). */
  readonly apiKeyStaleSeconds: number;
  /** Requests with an invalid API key allowed per client address and minute; 0 turns the limit off. */
  readonly authFailuresPerMinute: number;
  /** Where the instances of a fleet count their rate limits together; per instance when unset. */
  readonly redis?: { readonly url: string; readonly keyPrefix?: string };
  /** Which proxies' `X-Forwarded-For` names the client (Fastify's `trustProxy`): none by default. */
  readonly trustProxy: boolean | number | readonly string[];
  /** Whether requests are counted and `/metrics` is served. */
  readonly metrics: boolean;
  /** Whether the service sends security headers itself (off only behind a gateway that adds them). */
  readonly securityHeaders: boolean;

  private constructor(values: AppConfig) {
    Object.assign(this, values);
    Object.freeze(this);
  }

  /** Validates `env`; throws a {@link ConfigError} naming the first bad variable. */
  static fromEnvironment(env: Environment): AppConfig {
    const nodeEnv = oneOf(env, 'NODE_ENV', NODE_ENVS, 'development');
    const port = integer(env, 'PORT', 3000, 0, 65535);
    const host = nonEmpty(env, 'HOST', '127.0.0.1');
    const management = managementListener(env, host, port);
    const publicBase = baseUrl(env, 'PUBLIC_BASE_URL');
    const headersMs = integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 1, 600_000);
    const requestMs = integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1, 600_000);
    if (headersMs > requestMs) {
      throw new ConfigError('HEADERS_TIMEOUT_MS', `must not exceed REQUEST_TIMEOUT_MS (${headersMs} > ${requestMs})`);
    }
    const shutdownGraceMs = integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000);
    const delaySet = raw(env, 'SHUTDOWN_DELAY_MS') !== undefined;
    const defaultDelayMs = nodeEnv === 'production' ? PRODUCTION_SHUTDOWN_DELAY_MS : 0;
    const shutdownDelayMs = integer(env, 'SHUTDOWN_DELAY_MS', defaultDelayMs, 0, 600_000);
    if (shutdownDelayMs >= shutdownGraceMs && shutdownDelayMs > 0) {
      throw new ConfigError(
        'SHUTDOWN_DELAY_MS',
        `must be shorter than SHUTDOWN_GRACE_MS (${shutdownDelayMs} >= ${shutdownGraceMs}${delaySet ? '' : ': the default in production'})`,
      );
    }
    const apiKeyCacheSeconds = integer(env, 'API_KEY_CACHE_SECONDS', 10, 1, 30);
    const apiKeyStaleSeconds = integer(env, 'API_KEY_STALE_SECONDS', 60, 2, 3_600);
    if (apiKeyStaleSeconds <= apiKeyCacheSeconds) {
      throw new ConfigError(
        'API_KEY_STALE_SECONDS',
        `must be longer than API_KEY_CACHE_SECONDS (${apiKeyStaleSeconds} <= ${apiKeyCacheSeconds})`,
      );
    }
    return new AppConfig({
      maxConnections: maxConnections(env, openFileLimit()),
      apiKeyCacheSeconds,
      apiKeyStaleSeconds,
      authFailuresPerMinute: integer(env, 'AUTH_FAILURES_PER_MINUTE', 60, 0, 1_000_000),
      redis: redis(env),
      trustProxy: trustProxy(env),
      metrics: oneOf(env, 'METRICS', ON_OFF, 'on') === 'on',
      securityHeaders: oneOf(env, 'SECURITY_HEADERS', ON_OFF, 'on') === 'on',
      idempotencyTtlHours: integer(env, 'IDEMPOTENCY_TTL_HOURS', 24, 1, 8_760),
      nodeEnv,
      host,
      port,
      management,
      publicBaseUrl: publicBase,
      servers: {
        production: baseUrl(env, 'PRODUCTION_BASE_URL') ?? publicBase,
        staging: baseUrl(env, 'STAGING_BASE_URL'),
      },
      ...databaseSettingsOf(env),
      apiKeys: listOf(env, 'API_KEYS'),
      logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
      shutdownGraceMs,
      // Ctrl-C at a terminal stops at once, unless a delay was asked for.
      shutdownDelayMs: { SIGTERM: shutdownDelayMs, SIGINT: delaySet ? shutdownDelayMs : 0 },
      rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 3_000, 0, 10_000_000),
      corsOrigins: corsOrigins(env),
      timeouts: { headersMs, requestMs, keepAliveMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 65_000, 1, 600_000) },
    } as AppConfig);
  }
}

/**
 * `DATABASE_URL` and `DATABASE_TIMEOUT_MS` alone, for tools that open the
 * service's database without serving it (`npm run keys`).
 */
export function databaseSettingsOf(env: Environment): Pick<AppConfig, 'database' | 'databaseTimeoutMs'> {
  return {
    database: parseDatabaseUrl(raw(env, 'DATABASE_URL') ?? 'sqlite:./data/petstore.sqlite'),
    databaseTimeoutMs: integer(env, 'DATABASE_TIMEOUT_MS', 3_000, 100, 600_000),
  };
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

/** A comma-separated list, its entries trimmed, the empty ones dropped. */
function listOf(env: Environment, name: string): string[] {
  return (raw(env, name) ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** MANAGEMENT_PORT and MANAGEMENT_HOST (which defaults to HOST): unset, health and metrics stay on the API's port. */
function managementListener(env: Environment, host: string, port: number): AppConfig['management'] {
  const managementHost = raw(env, 'MANAGEMENT_HOST');
  if (raw(env, 'MANAGEMENT_PORT') === undefined) {
    if (managementHost !== undefined) throw new ConfigError('MANAGEMENT_HOST', 'needs MANAGEMENT_PORT');
    return undefined;
  }
  const managementPort = integer(env, 'MANAGEMENT_PORT', 0, 0, 65535);
  if (managementPort === port && port !== 0) {
    throw new ConfigError('MANAGEMENT_PORT', `must differ from PORT (both ${port})`);
  }
  return { host: managementHost ?? host, port: managementPort };
}

function baseUrl(env: Environment, name: string): string | undefined {
  const value = raw(env, name);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL (got "${value}")`);
  }
  const path = url.pathname.replace(/\/$/, '');
  if (!['http:', 'https:'].includes(url.protocol) || !path.endsWith(API_PREFIX) || url.search || url.hash) {
    throw new ConfigError(name, `must be an http(s) URL whose path ends in ${API_PREFIX} (got "${value}")`);
  }
  return `${url.origin}${path}`;
}

/** Files kept free of connections: the database and its WAL, the log, outgoing connections, a margin. */
const FILES_BESIDES_CONNECTIONS = 64;

/**
 * `MAX_CONNECTIONS`, which must leave room below the open-file limit: past
 * that limit every new connection fails, health checks included. By default
 * the limit less that room, at most 10,000 (1,000 where the limit is unknown).
 */
function maxConnections(env: Environment, fileLimit: number | undefined): number {
  const ceiling = fileLimit === undefined ? 1_000_000 : fileLimit - FILES_BESIDES_CONNECTIONS;
  if (ceiling < 16) {
    throw new ConfigError(
      'MAX_CONNECTIONS',
      `cannot be served: the open-file limit is ${fileLimit}; raise it (ulimit -n)`,
    );
  }
  const fallback = fileLimit === undefined ? 1_000 : Math.min(10_000, ceiling);
  const value = raw(env, 'MAX_CONNECTIONS');
  if (value !== undefined && /^\d+$/.test(value) && Number(value) > ceiling && fileLimit !== undefined) {
    throw new ConfigError(
      'MAX_CONNECTIONS',
      `must leave ${FILES_BESIDES_CONNECTIONS} of the ${fileLimit} files this process may open (ulimit -n) free: at most ${ceiling} (got "${value}")`,
    );
  }
  return integer(env, 'MAX_CONNECTIONS', fallback, 16, ceiling);
}

function corsOrigins(env: Environment): string[] {
  const origins = listOf(env, 'CORS_ORIGINS');
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
      throw new ConfigError('CORS_ORIGINS', `entries must be origins like https://app.example.com (got "${origin}")`);
    }
  }
  return origins;
}

function redis(env: Environment): AppConfig['redis'] {
  const url = raw(env, 'REDIS_URL');
  const keyPrefix = raw(env, 'REDIS_KEY_PREFIX');
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

/** Names proxy-addr understands besides addresses and CIDR ranges. */
const TRUSTED_PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `TRUST_PROXY`: `false` (the default: the client is the connection's peer),
 * `true` (any proxy: only behind one that overwrites X-Forwarded-For), a number
 * of proxy hops, or a comma-separated list of proxy addresses, CIDR ranges and
 * `loopback`/`linklocal`/`uniquelocal`.
 */
function trustProxy(env: Environment): boolean | number | string[] {
  const value = raw(env, 'TRUST_PROXY');
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    const hops = integer(env, 'TRUST_PROXY', 0, 0, 100);
    return hops === 0 ? false : hops;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (!TRUSTED_PROXY_NAMES.includes(entry) && (family === 0 || !validBits || extra !== undefined)) {
      throw new ConfigError(
        'TRUST_PROXY',
        `must be false, true, a hop count, or proxy addresses/CIDR ranges separated by commas (got "${entry}")`,
      );
    }
  }
  return entries;
}
