import { createHash, randomBytes } from 'node:crypto';

/** What every key the service issues starts with, so that secret scanners can find leaked ones. */
export const API_KEY_PREFIX = 'pst_';

/**
 * `pst_`, a public id of 12 hex digits (48 random bits, what listings show),
 * then the secret: 64 hex digits (256 random bits). Hex, so that the key is
 * one word to a double click and to a scanner's regular expression.
 */
const ISSUED_KEY = /^pst_([0-9a-f]{12})[0-9a-f]{64}$/;

/** A new key: the key itself (shown once), its listing prefix, and the digest that is stored. */
export function newApiKey(): { key: string; prefix: string; digest: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(6).toString('hex')}${randomBytes(32).toString('hex')}`;
  return { key, prefix: prefixOf(key)!, digest: digestOf(key).toString('hex') };
}

/** The listing prefix of a key the service issued, or `undefined` for anything else. */
export function prefixOf(presented: string): string | undefined {
  const id = ISSUED_KEY.exec(presented)?.[1];
  return id === undefined ? undefined : `${API_KEY_PREFIX}${id}`;
}

/**
 * SHA-256 of a key. A fast hash is enough for keys of 256 random bits: there
 * is no dictionary to try, so a slow password hash would only slow requests.
 */
export function digestOf(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}
