import { apiKeyName, type ApiKey } from '../domain/api-key';
import { ApiKeyNotFoundError, ApiKeyRevokedError } from '../domain/api-key.errors';
import { ApiKeyRepository } from '../domain/api-key.repository';
import { EVERY_SCOPE } from '../domain/scope';
import { newApiKey } from './api-key-material';

/**
 * The operators' use cases: issue a key, list them, change what one grants, revoke one (`npm run keys`). Scopes come
 * checked against the service's routes (scopePatterns): what they are is known where the routes are.
 */
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A new key named `name`, granting `scopes`: the returned `key` is the only time anyone sees it. */
  async create(name: string, scopes: readonly string[] = EVERY_SCOPE): Promise<{ key: string; apiKey: ApiKey }> {
    const { key, prefix, digest } = newApiKey();
    const apiKey: ApiKey = { name: apiKeyName(name), prefix, digest, scopes, createdAt: this.now() };
    await this.keys.add(apiKey);
    return { key, apiKey };
  }

  list(): Promise<ApiKey[]> {
    return this.keys.list();
  }

  /** Makes the key named `name` grant `scopes` instead (narrowed or widened); a revoked key stays revoked. */
  async setScopes(name: string, scopes: readonly string[]): Promise<{ apiKey: ApiKey; before: readonly string[] }> {
    const found = await this.keys.findByName(name);
    if (!found) throw new ApiKeyNotFoundError(name);
    if (found.revokedAt) throw new ApiKeyRevokedError(name);
    await this.keys.setScopes(name, scopes);
    return { apiKey: { ...found, scopes }, before: found.scopes };
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
