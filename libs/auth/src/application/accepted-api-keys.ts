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
    // The keys of API_KEYS first: they stay valid while the stored ones cannot be read.
    return this.configured.verify(presentedKey) ?? this.stored.verify(presentedKey);
  }
}
