import { timingSafeEqual } from 'node:crypto';
import { digestOf } from './api-key-material';
import { ApiKeyVerifier, type Caller } from './api-key.verifier';

/** An entry of `API_KEYS`: the key, and the name logs, metrics and idempotency scopes know its caller by. */
export interface ConfiguredKey {
  readonly name: string;
  readonly key: string;
  /** What it grants: every scope unless the entry names some (`name:key:pets:read+store:read`). */
  readonly scopes: readonly string[];
}

/**
 * The keys of `API_KEYS`. Keys are compared as SHA-256 digests with
 * `timingSafeEqual`, against every configured key, so neither the key's length
 * nor the position of its first wrong character shows in the response time.
 */
export class ConfiguredApiKeys extends ApiKeyVerifier {
  private readonly keys: ReadonlyArray<{ digest: Buffer; caller: Caller }>;

  constructor(private readonly configured: readonly ConfiguredKey[]) {
    super();
    const keys = configured;
    this.keys = keys.map(({ name, key, scopes }) => ({ digest: digestOf(key), caller: { principal: name, scopes } }));
  }

  /** The key of that name, as configured (the one generated outside production, to print it once). */
  keyNamed(name: string): string | undefined {
    return this.configured.find((key) => key.name === name)?.key;
  }

  get size(): number {
    return this.keys.length;
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
