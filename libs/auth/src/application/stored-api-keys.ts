import { timingSafeEqual } from 'node:crypto';
import type { ApiKey } from '../domain/api-key';
import { ApiKeysUnavailableError } from '../domain/api-key.errors';
import { ApiKeyRepository } from '../domain/api-key.repository';
import { digestOf, prefixOf } from './api-key-material';
import { ApiKeyVerifier, type Caller } from './api-key.verifier';

/** "Last used" is written at most this often per key and instance. */
export const LAST_USED_EVERY_MS = 60_000;

/** Compared against when no key has the presented prefix, so that a miss costs what a hit costs. */
const NO_DIGEST = Buffer.alloc(32);

/**
 * The keys stored in the database, as this instance last read them: requests
 * are checked in memory, never with a query. {@link refresh} reads the table
 * again (every API_KEY_CACHE_SECONDS, see AuthModule), so a key created or
 * revoked on any instance, or with `npm run keys`, takes effect everywhere
 * within that time. If a refresh fails, the keys of the last one stay in force
 * for `staleSeconds` (API_KEY_STALE_SECONDS) after it; past that a revocation
 * may have been missed, so an issued key is answered 503, never accepted.
 *
 * A presented key is found by its public prefix, then its SHA-256 is compared
 * with `timingSafeEqual`: the time taken does not depend on the secret part.
 */
export class StoredApiKeys extends ApiKeyVerifier {
  private byPrefix = new Map<string, { digest: Buffer; caller: Caller }>();
  private refreshedAt: number;
  /** When this instance last wrote "last used" for each key name. */
  private readonly lastRecorded = new Map<string, number>();

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly onRecordFailure: (error: unknown) => void,
    private readonly staleSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.refreshedAt = now();
  }

  async refresh(): Promise<void> {
    const active = await this.keys.active();
    this.byPrefix = new Map(active.map((key: ApiKey) => [key.prefix, entryOf(key)]));
    this.refreshedAt = this.now();
  }

  get size(): number {
    return this.byPrefix.size;
  }

  verify(presentedKey: string): Caller | undefined {
    const prefix = prefixOf(presentedKey);
    if (prefix === undefined) return undefined;
    if (this.now() - this.refreshedAt > this.staleSeconds * 1000) throw new ApiKeysUnavailableError(this.staleSeconds);
    const entry = this.byPrefix.get(prefix);
    const matches = timingSafeEqual(digestOf(presentedKey), entry?.digest ?? NO_DIGEST);
    if (!entry || !matches) return undefined;
    this.noteUse(entry.caller.principal);
    return entry.caller;
  }

  /** Writes "last used" in the background, at most once a minute per key: the request does not wait for it. */
  private noteUse(name: string): void {
    const now = this.now();
    const last = this.lastRecorded.get(name);
    if (last !== undefined && now - last < LAST_USED_EVERY_MS) return;
    this.lastRecorded.set(name, now);
    this.keys.recordUse(name, new Date(now)).catch(this.onRecordFailure);
  }
}

function entryOf(key: ApiKey): { digest: Buffer; caller: Caller } {
  return { digest: Buffer.from(key.digest, 'hex'), caller: { principal: key.name, scopes: key.scopes } };
}
