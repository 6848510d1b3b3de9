import { timingSafeEqual } from 'node:crypto';
import { digestOf } from './api-key-material';
import { ApiKeyVerifier, type Caller } from './api-key.verifier';

/** An entry of `API_KEYS`: the key, and the name logs, metrics and idempotency scopes know its caller by. */
export interface ConfiguredKey {
  readonly name: string;
  readonly key: string;
}

/**
 * The keys of `API_KEYS`. Keys are compared as SHA-256 digests with
 * `timingSafeEqual`, against every configured key, so neither the key's length
 * nor the position of its first wrong character shows in the response time.
 */
export class ConfiguredApiKeys extends ApiKeyVerifier {
  private readonly keys: ReadonlyArray<{ digest: Buffer; caller: Caller }>;

  constructor(keys: readonly ConfiguredKey[]) {
    super();
    this.keys = keys.map(({ name, key }) => ({ digest: digestOf(key), caller: { principal: name } }));
  }

  get size(): number {
    return this.keys.length;
  }

  /**
   * Up to release 2.0.0 a key of `API_KEYS` was known by the first 12 hex
   * digits of its SHA-256, and its Idempotency-Keys were recorded under them:
   * those records move to its name at each start, so that a client's retry
   * across the upgrade gets its answer rather than a second pet. The old label
   * is only a query parameter here, never logged or stored again. This can go
   * once no database is upgraded from 2.0.0 (records live IDEMPOTENCY_TTL_HOURS).
   */
  async adoptIdempotencyRecords(records: { renamePrincipal(from: string, to: string): Promise<void> }): Promise<void> {
    for (const { digest, caller } of this.keys)
      await records.renamePrincipal(digest.toString('hex', 0, 6), caller.principal);
  }

  verify(presentedKey: string): Caller | undefined {
    const presented = digestOf(presentedKey);
    let match: Caller | undefined;
    for (const key of this.keys) {
      if (timingSafeEqual(presented, key.digest)) match = key.caller;
    }
    return match;
  }
}
