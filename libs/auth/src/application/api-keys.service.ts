import { apiKeyName, type ApiKey } from '../domain/api-key';
import { ApiKeyNotFoundError } from '../domain/api-key.errors';
import { ApiKeyRepository } from '../domain/api-key.repository';
import { newApiKey } from './api-key-material';

/** The operators' use cases: issue a key, list them, revoke one (`npm run keys`). */
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A new key named `name`: the returned `key` is the only time anyone sees it. */
  async create(name: string): Promise<{ key: string; apiKey: ApiKey }> {
    const { key, prefix, digest } = newApiKey();
    const apiKey: ApiKey = { name: apiKeyName(name), prefix, digest, createdAt: this.now() };
    await this.keys.add(apiKey);
    return { key, apiKey };
  }

  list(): Promise<ApiKey[]> {
    return this.keys.list();
  }

  /** Revokes the key named `name`; revoking it again changes nothing and says so. */
  async revoke(name: string): Promise<{ apiKey: ApiKey; alreadyRevoked: boolean }> {
    const found = await this.keys.findByName(name);
    if (!found) throw new ApiKeyNotFoundError(name);
    if (found.revokedAt) return { apiKey: found, alreadyRevoked: true };
    const revokedAt = this.now();
    await this.keys.revoke(name, revokedAt);
    return { apiKey: { ...found, revokedAt }, alreadyRevoked: false };
  }
}
