import type { ApiKey } from './api-key';

/** The port to where keys are kept. */
export abstract class ApiKeyRepository {
  /** Stores a new key; an {@link ApiKeyNameTakenError} if its name is taken. */
  abstract add(key: ApiKey): Promise<void>;
  /** Every key, revoked ones included, oldest first. */
  abstract list(): Promise<ApiKey[]>;
  /** The keys not revoked: those a request may use. */
  abstract active(): Promise<ApiKey[]>;
  abstract findByName(name: string): Promise<ApiKey | undefined>;
  /** Marks the key revoked at `at`, unless it is already. */
  abstract revoke(name: string, at: Date): Promise<void>;
  /** Replaces what the key grants, unless it is revoked. */
  abstract setScopes(name: string, scopes: readonly string[]): Promise<void>;
  /** Records that the key was used at `at` (never moving "last used" back). */
  abstract recordUse(name: string, at: Date): Promise<void>;
}
