import { isIP } from 'node:net';
import { registerAs } from '@nestjs/config';
import { API_PREFIX } from './api-prefix';
import { ConfigError } from './config.error';
import { Settings, type Environment } from './settings';
import { withoutCredentials } from './without-credentials';

export const NODE_ENVS = ['development', 'production', 'test'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const ON_OFF = ['on', 'off'] as const;

export type ShutdownSignal = 'SIGTERM' | 'SIGINT';

/**
 * SHUTDOWN_DELAY_MS when unset, on SIGTERM in production: what a load balancer checking readiness every second or two
 * takes to see two failures and stop sending, so that a rolling restart with the defaults loses no request.
 */
export const PRODUCTION_SHUTDOWN_DELAY_MS = 5_000;

/**
 * The server's own configuration, read from the environment and validated at startup ({@link appConfig}, Nest's `app`
 * namespace); also the DI token. Each library reads its own variables, in a namespace of its own.
 */
export class AppConfig {
  readonly nodeEnv: NodeEnv;
  readonly host: string;
  readonly port: number;
  /** This deployment's public base address, ending in `/v1`; unset, the document's server is the relative `/v1`. */
  readonly publicBaseUrl?: string;
  readonly logLevel: LogLevel;
  readonly shutdownGraceMs: number;
  /**
   * How long a shutdown keeps serving (readiness 503) before it stops accepting connections, by signal:
   * SHUTDOWN_DELAY_MS, else {@link PRODUCTION_SHUTDOWN_DELAY_MS} on SIGTERM in production, and none on SIGINT (Ctrl-C).
   */
  readonly shutdownDelayMs: Readonly<Record<ShutdownSignal, number>>;
  /** The deployments the OpenAPI document lists as servers, each ending in `/v1`. */
  readonly servers: { readonly production?: string; readonly staging?: string };
  readonly timeouts: { readonly headersMs: number; readonly requestMs: number; readonly keepAliveMs: number };
  /** Which proxies' `X-Forwarded-For` names the client (Fastify's `trustProxy`): none by default. */
  readonly trustProxy: boolean | number | readonly string[];
  /** Whether requests are counted and `/metrics` is served. */
  readonly metrics: boolean;
  /** The environment this was read from, for the core's own parts (CORS, security headers, connection limits). */
  readonly settings: Settings;

  private constructor(values: AppConfig) {
    Object.assign(this, values);
    Object.freeze(this);
  }

  /** Validates `env`; throws a {@link ConfigError} naming the first bad variable. */
  static fromEnvironment(env: Environment): AppConfig {
    const settings = new Settings(env);
    const nodeEnv = settings.oneOf('NODE_ENV', NODE_ENVS, 'development');
    const port = settings.integer('PORT', 3000, 0, 65535);
    const host = settings.text('HOST') ?? '127.0.0.1';
    const publicBase = baseUrl(settings, 'PUBLIC_BASE_URL');
    const headersMs = settings.integer('HEADERS_TIMEOUT_MS', 10_000, 1, 600_000);
    const requestMs = settings.integer('REQUEST_TIMEOUT_MS', 30_000, 1, 600_000);
    if (headersMs > requestMs) {
      throw new ConfigError('HEADERS_TIMEOUT_MS', `must not exceed REQUEST_TIMEOUT_MS (${headersMs} > ${requestMs})`);
    }
    const shutdownGraceMs = settings.integer('SHUTDOWN_GRACE_MS', 10_000, 0, 600_000);
    const delaySet = settings.text('SHUTDOWN_DELAY_MS') !== undefined;
    const defaultDelayMs = nodeEnv === 'production' ? PRODUCTION_SHUTDOWN_DELAY_MS : 0;
    const shutdownDelayMs = settings.integer('SHUTDOWN_DELAY_MS', defaultDelayMs, 0, 600_000);
    if (shutdownDelayMs >= shutdownGraceMs && shutdownDelayMs > 0) {
      throw new ConfigError(
        'SHUTDOWN_DELAY_MS',
        `must be shorter than SHUTDOWN_GRACE_MS (${shutdownDelayMs} >= ${shutdownGraceMs}${delaySet ? '' : ': the default in production'})`,
      );
    }
    return new AppConfig({
      trustProxy: trustProxy(settings),
      settings,
      metrics: settings.oneOf('METRICS', ON_OFF, 'on') === 'on',
      nodeEnv,
      host,
      port,
      publicBaseUrl: publicBase,
      servers: {
        production: baseUrl(settings, 'PRODUCTION_BASE_URL') ?? publicBase,
        staging: baseUrl(settings, 'STAGING_BASE_URL'),
      },
      logLevel: settings.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
      shutdownGraceMs,
      // Ctrl-C at a terminal stops at once, unless a delay was asked for.
      shutdownDelayMs: { SIGTERM: shutdownDelayMs, SIGINT: delaySet ? shutdownDelayMs : 0 },
      timeouts: { headersMs, requestMs, keepAliveMs: settings.integer('KEEP_ALIVE_TIMEOUT_MS', 65_000, 1, 600_000) },
    } as AppConfig);
  }
}

function baseUrl(settings: Settings, name: string): string | undefined {
  const value = settings.text(name);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL (got "${withoutCredentials(value)}")`);
  }
  const path = url.pathname.replace(/\/$/, '');
  if (!['http:', 'https:'].includes(url.protocol) || !path.endsWith(API_PREFIX) || url.search || url.hash) {
    throw new ConfigError(
      name,
      `must be an http(s) URL whose path ends in ${API_PREFIX} (got "${withoutCredentials(value)}")`,
    );
  }
  return `${url.origin}${path}`;
}

/** Names proxy-addr understands besides addresses and CIDR ranges. */
const TRUSTED_PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `TRUST_PROXY`: `false` (the default: the client is the peer), `true` (any proxy: only behind one that overwrites
 * X-Forwarded-For), a hop count, or proxy addresses, CIDR ranges and `loopback`/`linklocal`/`uniquelocal`.
 */
function trustProxy(settings: Settings): boolean | number | string[] {
  const value = settings.text('TRUST_PROXY');
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    const hops = settings.integer('TRUST_PROXY', 0, 0, 100);
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

/** The core's settings as Nest's configuration names them (`app`): read from the environment when the application starts. */
export const appConfig = registerAs('app', (): AppConfig => AppConfig.fromEnvironment(process.env));
