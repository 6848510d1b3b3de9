/** Who called: never the key itself, only a non-secret fingerprint of it. */
export interface Caller {
  /** First 12 hex digits of the key's SHA-256: safe for logs and metrics. */
  readonly keyFingerprint: string;
}

/**
 * The port for checking an API key. The default implementation compares with
 * the keys of `API_KEYS`; a team with a key store provides its own class under
 * this token.
 */
export abstract class ApiKeyVerifier {
  /** The caller the key belongs to, or `undefined` for an unknown key. */
  abstract verify(presentedKey: string): Caller | undefined;
}
