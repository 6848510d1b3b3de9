import { timingSafeEqual } from 'node:crypto';
import { digestOf } from './api-key-material';
import { ApiKeyVerifier, type Caller } from './api-key.verifier';

/**
 * The keys of `API_KEYS`. Keys are compared as SHA-256 digests with
 * `timingSafeEqual`, against every configured key, so neither the key's length
 * nor the position of its first wrong character shows in the response time.
 */
export class ConfiguredApiKeys extends ApiKeyVerifier {
  private readonly keys: ReadonlyArray<{ digest: Buffer; caller: Caller }>;

  constructor(keys: readonly string[]) {
    super();
    this.keys = keys.map((key) => {
      const digest = digestOf(key);
      return { digest, caller: { principal: digest.toString('hex', 0, 6) } };
    });
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
