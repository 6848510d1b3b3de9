/** Who called: never the key itself. */
export interface Caller {
  /**
   * The caller as logs and metrics show it, and what scopes its
   * Idempotency-Keys and rate limit: a stored key's name, or a key of
   * `API_KEYS` by its name (`name:key`) or place (`API_KEYS#2`).
   */
  readonly principal: string;
  /** The scopes the key grants (`pets:read`, `store:*`, `*`): checked against each operation's by the bearer guard. */
  readonly scopes: readonly string[];
}

/**
 * The port for checking an API key. The service's own implementation accepts
 * the keys stored in the database and those of `API_KEYS`; a team with a key
 * store of its own provides its own class under this token.
 */
export abstract class ApiKeyVerifier {
  /**
   * The caller the key belongs to, or `undefined` for an unknown key.
   * Synchronous: it runs on every request. Throws an AppError of kind
   * `unavailable` when it cannot tell now (the key store has not been read
   * for too long).
   */
  abstract verify(presentedKey: string): Caller | undefined;
}
