import { createHash } from 'node:crypto';
import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { SqlClient } from '@app/database';
import { JSON_CONTENT_TYPE } from '@app/platform';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError } from './idempotency.errors';
import { IdempotencySettings } from './idempotency.settings';

/** Whose request, under which key, with which content. */
export interface IdempotencyScope {
  /** The caller (an API key's identity): two callers may use the same key independently. */
  principal: string;
  key: string;
  /** SHA-256 of the method, the route and the body with its keys sorted. */
  fingerprint: string;
}

interface Recorded {
  fingerprint: string;
  status: number;
  location: string | null;
  body: string;
}

/** Seconds a client is asked to wait while the first request with its key is being processed. */
const IN_USE_RETRY_AFTER_SECONDS = 1;
const PURGE_EVERY_MS = 10 * 60_000;

/**
 * Safe retries (`Idempotency-Key`, draft-ietf-httpapi-idempotency-key-header).
 * Its table is IdempotencyRecord's, reached with fixed SQL rather than
 * TypeORM's findOne() and upsert() (docs/decisions/0005-sql-on-the-hot-path.md).
 * The first request with a key runs in one transaction with the record of its
 * answer (status, body, Location): a crash leaves either both or neither.
 * Later requests with the same key and the same content get that answer again,
 * byte for byte, with `Idempotent-Replayed: true`; with other content, 422;
 * while the first is still running, 409 with Retry-After. Only successes are
 * recorded: a refused request (400, 401, 409, 422) changed nothing, and a
 * failed one (5xx) was rolled back, so a retry is processed afresh. Records are
 * kept IDEMPOTENCY_TTL_HOURS and purged in the background.
 */
@Injectable()
export class IdempotencyStore implements OnModuleInit, OnApplicationShutdown {
  /** Keys being processed in this process (SQLite has one process; PostgreSQL adds an advisory lock per key). */
  private readonly inFlight = new Set<string>();
  private purger?: NodeJS.Timeout;
  private readonly sql: { find: string; save: string; purge: string };

  constructor(
    private readonly db: SqlClient,
    private readonly settings: IdempotencySettings,
  ) {
    const { dialect } = db;
    this.sql = {
      find: dialect.statement(
        'SELECT fingerprint, status, location, body FROM idempotency_keys WHERE principal = $1 AND idempotency_key = $2 AND created_at >= $3',
      ),
      // Overwrites only an expired record: a live one means that another instance recorded this key meanwhile.
      save: dialect.statement(
        'INSERT INTO idempotency_keys (principal, idempotency_key, fingerprint, status, location, body, created_at) ' +
          'VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (principal, idempotency_key) DO UPDATE SET ' +
          'fingerprint = excluded.fingerprint, status = excluded.status, location = excluded.location, body = excluded.body, created_at = excluded.created_at ' +
          'WHERE idempotency_keys.created_at < $8',
      ),
      purge: dialect.statement('DELETE FROM idempotency_keys WHERE created_at < $1'),
    };
  }

  /**
   * What a request acts on: its method, its route and the values of the route's parameters (the order it approves),
   * and its body. A route without parameters keeps the fingerprint it had before they were counted, so the records
   * of a create made before an upgrade still answer its retries.
   */
  static fingerprintOf(method: string, route: string, params: Record<string, string>, body: unknown): string {
    const target = Object.keys(params).length === 0 ? route : `${route} ${canonicalJson(params)}`;
    return createHash('sha256')
      .update(`${method} ${target}\n${canonicalJson(body)}`)
      .digest('hex');
  }

  /**
   * Answers from the record of `scope`, or runs `handle` in a transaction with
   * the record of its answer. Returns the JSON text to send.
   */
  async execute(scope: IdempotencyScope, reply: FastifyReply, handle: () => Promise<unknown>): Promise<string> {
    const flight = `${scope.principal}\n${scope.key}`;
    if (this.inFlight.has(flight)) this.refuseInUse(reply);
    // Marked before the look-up: a request of this process with the same key either recorded its answer
    // before this look-up or is still marked.
    this.inFlight.add(flight);
    try {
      const recorded = await this.find(scope);
      if (recorded) return this.replay(recorded, scope, reply);
      return await this.db.transaction(() => this.handleAndRecord(scope, flight, reply, handle));
    } catch (error) {
      if (!(error instanceof RecordedMeanwhile)) throw error;
      // The handler's work was rolled back with the transaction: the other instance's answer is the one.
      return this.replay(error.recorded, scope, reply);
    } finally {
      this.inFlight.delete(flight);
    }
  }

  /**
   * Inside the transaction: the handler, then the record of its answer. No
   * read of the records here: on PostgreSQL (SERIALIZABLE) reads of one
   * small index by concurrent keyed creates made most of them fail to
   * serialize. Another instance that recorded the key since the look-up shows
   * instead in the record's write, which then changes no row.
   */
  private async handleAndRecord(
    scope: IdempotencyScope,
    flight: string,
    reply: FastifyReply,
    handle: () => Promise<unknown>,
  ): Promise<string> {
    if (this.db.isPostgres) {
      // Another instance may be processing the same key now.
      const [lock] = await this.db.read<{ locked: boolean }>(
        'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked',
        [flight],
      );
      if (!lock.locked) this.refuseInUse(reply);
    }
    // The route's own serializer (its response schema, as @Responds set it up): the answer recorded and
    // replayed is byte for byte the one a request without a key gets.
    const body = String(reply.serialize(await handle()));
    const location = reply.getHeader('location');
    const now = Date.now();
    const saved = await this.db.write(this.sql.save, [
      scope.principal,
      scope.key,
      scope.fingerprint,
      reply.statusCode,
      typeof location === 'string' ? location : null,
      body,
      now,
      now - this.ttlMs,
    ]);
    if (saved.changed === 0) {
      // Committed by another instance (or process on the same SQLite file) before this transaction began.
      const recorded = await this.find(scope);
      throw recorded ? new RecordedMeanwhile(recorded) : new Error('no live record, yet the record changed no row');
    }
    reply.type(JSON_CONTENT_TYPE);
    return body;
  }

  /** Deletes the records older than IDEMPOTENCY_TTL_HOURS. */
  async purgeExpired(): Promise<void> {
    await this.db.write(this.sql.purge, [Date.now() - this.ttlMs]);
  }

  onModuleInit(): void {
    this.purger = setInterval(() => void this.purgeExpired().catch(() => undefined), PURGE_EVERY_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.purger);
  }

  private get ttlMs(): number {
    return this.settings.ttlHours * 3_600_000;
  }

  private async find(scope: IdempotencyScope): Promise<Recorded | undefined> {
    const [row] = await this.db.read<Recorded>(this.sql.find, [scope.principal, scope.key, Date.now() - this.ttlMs]);
    return row;
  }

  private replay(recorded: Recorded, scope: IdempotencyScope, reply: FastifyReply): string {
    if (recorded.fingerprint !== scope.fingerprint) throw new IdempotencyKeyReusedError();
    reply.status(Number(recorded.status));
    // A handler whose work was rolled back may have set its own.
    if (recorded.location !== null) reply.header('location', recorded.location);
    else reply.removeHeader('location');
    reply.header('idempotent-replayed', 'true');
    reply.type(JSON_CONTENT_TYPE);
    return recorded.body;
  }

  private refuseInUse(reply: FastifyReply): never {
    reply.header('retry-after', String(IN_USE_RETRY_AFTER_SECONDS));
    throw new IdempotencyKeyInUseError();
  }
}

/** Rolls back a transaction whose key another instance recorded first, carrying that record to replay. */
class RecordedMeanwhile extends Error {
  constructor(readonly recorded: Recorded) {
    super('the Idempotency-Key was recorded by another instance meanwhile');
  }
}

/** JSON with every object's keys in order, so that the same content always has the same fingerprint. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  // An integer past 2^53 arrives as a bigint (pipeline/json-body.ts): its digits, as JSON writes a number.
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? 'null';
}
