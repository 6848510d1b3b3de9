import { InvalidApiKeyNameError } from './api-key.errors';

/**
 * An API key as the service keeps it: who it is for, how it shows in listings,
 * and the digest it is checked against. The key itself is never stored; it is
 * shown once, when it is created.
 */
export interface ApiKey {
  /** Chosen by the operator, unique for ever (a revoked key's name is not reused), shown in logs and metrics. */
  readonly name: string;
  /** The key's first characters (`pst_` and its public id): tells keys apart in listings, proves nothing. */
  readonly prefix: string;
  /** SHA-256 of the whole key, in hex. */
  readonly digest: string;
  /** What it grants (scope.ts): `*`, every scope, for a key made without `--scopes` and every key made before them. */
  readonly scopes: readonly string[];
  readonly createdAt: Date;
  readonly revokedAt?: Date;
  /** When a request last used the key (recorded at most once a minute per instance). */
  readonly lastUsedAt?: Date;
}

/** Letters, digits, `.`, `_` and `-`, starting with a letter or a digit: safe in a log line, a metric label and a shell. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Whether `raw` can name a key (a stored one, or one of `API_KEYS` as `name:key`). */
export function isApiKeyName(raw: string): boolean {
  return NAME.test(raw);
}

/** `raw` if it can name a key; otherwise an {@link InvalidApiKeyNameError} saying why. */
export function apiKeyName(raw: string): string {
  if (!isApiKeyName(raw)) {
    throw new InvalidApiKeyNameError(
      `"${raw}" cannot name a key: use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or a digit`,
    );
  }
  return raw;
}
