import type { Provider, OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import { APP_LOGGER, MetricsService, RequestTracing, SERVICE_INFO, type ServiceInfo } from '@app/platform';
import { FixedWindowCounter, type ThrottlerStorageRecord } from './fixed-window-counter';
import { RateLimitSettings } from './rate-limit.settings';

/** How long a rate-limit check may wait for Redis before the request goes through unlimited. */
export const REDIS_COMMAND_TIMEOUT_MS = 250;

/** What a failed check answers: nothing counted, nothing blocked. */
const NOT_COUNTED: ThrottlerStorageRecord = { totalHits: 0, timeToExpire: 0, isBlocked: false, timeToBlockExpire: 0 };

/**
 * Where rate limits are counted: in this process (FixedWindowCounter), or,
 * with `REDIS_URL`, in Redis through
 * @nest-lab/throttler-storage-redis, so that every instance of a fleet counts
 * against the same budget. Both the per-key limit and the failed-authentication
 * limit count here.
 *
 * Redis failing must not take the service down with it: a check that cannot
 * reach Redis within {@link REDIS_COMMAND_TIMEOUT_MS} lets the request through
 * (fails open). The first failure of an episode is logged, every one is
 * counted (`<service>_rate_limit_storage_failures_total`), and the first
 * success after it logs that limiting has resumed. ioredis keeps reconnecting
 * in the background; commands are not queued while it is away.
 *
 * ioredis and the Redis storage are loaded only when Redis is configured:
 * without it they would add 40 ms to every start and their code to the
 * memory of every instance.
 */
export class RateLimitStorage implements ThrottlerStorage, OnApplicationShutdown {
  /** Nest's provider: the storage {@link create} makes from the configuration. */
  static readonly provider: Provider = {
    provide: RateLimitStorage,
    inject: [RateLimitSettings, SERVICE_INFO, APP_LOGGER, MetricsService, { token: RequestTracing, optional: true }],
    useFactory: RateLimitStorage.create,
  };

  private failing = false;

  static async create(
    { redis: shared }: RateLimitSettings,
    service: ServiceInfo,
    logger: Logger,
    metrics: MetricsService,
    tracing?: RequestTracing,
  ): Promise<RateLimitStorage> {
    const keyPrefix = shared?.keyPrefix ?? `${service.id}:`;
    const failures = metrics.counter(
      'rate_limit_storage_failures_total',
      'Rate-limit checks that could not reach the shared storage (Redis) and let the request through unlimited.',
    );
    if (!shared) {
      return new RateLimitStorage(logger, failures, keyPrefix, new FixedWindowCounter());
    }
    const [{ Redis }, { ThrottlerStorageRedisService }] = await Promise.all([
      import('ioredis'),
      import('@nest-lab/throttler-storage-redis'),
    ]);
    const redis = new Redis(shared.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: 2_000,
      // Reconnect for ever, at most every 2 s: limiting resumes by itself.
      retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
    });
    const spans = tracing && { tracing, attributes: redisAttributes(shared.url) };
    return new RateLimitStorage(logger, failures, keyPrefix, new ThrottlerStorageRedisService(redis), redis, spans);
  }

  private constructor(
    private readonly logger: Logger,
    private readonly failures: Counter,
    private readonly keyPrefix: string,
    private readonly counter: ThrottlerStorage & { onApplicationShutdown?(): void },
    private readonly redis?: Redis,
    /** With tracing on, each count in Redis is a span of the request's, so that a slow Redis shows. */
    private readonly spans?: {
      readonly tracing: RequestTracing;
      readonly attributes: Readonly<Record<string, string | number>>;
    },
  ) {
    // Without a listener ioredis prints every connection error to the console.
    redis?.on('error', (error: Error) => this.failed(error));
    redis?.on('ready', () => this.recovered());
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    if (!this.redis) return this.counter.increment(key, ttl, limit, blockDuration, throttlerName);
    try {
      const shared = this.keyPrefix + key;
      const record = await (this.spans
        ? this.spans.tracing.span('rate-limit count', this.spans.attributes, () =>
            this.counter.increment(shared, ttl, limit, blockDuration, throttlerName),
          )
        : this.counter.increment(shared, ttl, limit, blockDuration, throttlerName));
      this.recovered();
      return record;
    } catch (error) {
      this.failures.inc();
      this.failed(error as Error);
      return NOT_COUNTED;
    }
  }

  private failed(error: Error): void {
    if (this.failing) return;
    this.failing = true;
    this.logger.warn(
      { context: 'RateLimit', err: { message: error.message } },
      'rate-limit storage (Redis) unreachable: requests are served without rate limits until it answers again',
    );
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.logger.info({ context: 'RateLimit' }, 'rate-limit storage (Redis) answers again: rate limits apply');
  }

  onApplicationShutdown(): void {
    this.counter.onApplicationShutdown?.();
    this.redis?.disconnect(false);
  }
}

function redisAttributes(url: string): Record<string, string | number> {
  const { hostname, port } = new URL(url);
  return { 'db.system.name': 'redis', 'server.address': hostname, 'server.port': Number(port || 6379) };
}
