import { ApiKeyVerifier, type Caller } from './api-key.verifier';
import type { ConfiguredApiKeys } from './configured-api-keys';
import type { StoredApiKeys } from './stored-api-keys';

/** What the service accepts: the keys stored in the database, and those of `API_KEYS`. */
export class AcceptedApiKeys extends ApiKeyVerifier {
  constructor(
    private readonly stored: StoredApiKeys,
    private readonly configured: ConfiguredApiKeys,
  ) {
    super();
  }

  verify(presentedKey: string): Caller | undefined {
    // The stored keys first: a key of another shape leaves them at once, unhashed (and is not refused when they
    // are stale), so an API_KEYS key costs one digest and a stored key does not pay for the API_KEYS comparison.
    return this.stored.verify(presentedKey) ?? this.configured.verify(presentedKey);
  }
}
