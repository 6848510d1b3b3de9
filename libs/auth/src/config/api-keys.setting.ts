import { ConfigError } from '@app/platform';
import type { ConfiguredKey } from '../application/configured-api-keys';
import { isApiKeyName } from '../domain/api-key';
import { EVERY_SCOPE, isScopePattern } from '../domain/scope';

/** Shortest API key accepted: shorter ones are guessable. */
const MIN_API_KEY_LENGTH = 16;

/** What a bearer credential can carry (RFC 6750's b64token): a key of other characters could never be presented. */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * The entries of `API_KEYS`, each `name:key`, `name:key:<scope>+<scope>` or a bare key. A named key is
 * known by its name; a bare one by its place in the list (`API_KEYS#2`),
 * never by anything computed from the key: a label derived from a human-chosen
 * key alone could be matched against a dictionary offline by whoever reads a
 * log line or a metric. Keys and names are never echoed in an error (an entry
 * may be a real secret with a typo).
 */
export function configuredKeysOf(entries: readonly string[]): ConfiguredKey[] {
  const keys = entries.map((entry, index): ConfiguredKey => {
    const colon = entry.indexOf(':');
    const name = colon >= 0 ? entry.slice(0, colon) : `API_KEYS#${index + 1}`;
    // A key holds no ":", so what follows a second one is the key's scopes.
    const second = colon >= 0 ? entry.indexOf(':', colon + 1) : -1;
    const key = colon < 0 ? entry : entry.slice(colon + 1, second < 0 ? undefined : second);
    const scopes = second < 0 ? EVERY_SCOPE : entry.slice(second + 1).split('+');
    const badScope = scopes.find((scope) => !isScopePattern(scope));
    if (badScope !== undefined) {
      throw new ConfigError(
        'API_KEYS',
        `entry ${index + 1}: "${badScope}" is not a scope: give <area>:read, <area>:write, <area>:*, *:read, *:write or *, joined by "+" (name:key:pets:read+store:read)`,
      );
    }
    if (colon >= 0 && !isApiKeyName(name)) {
      throw new ConfigError(
        'API_KEYS',
        `entry ${index + 1}: the name before ":" must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or a digit`,
      );
    }
    if (key.length < MIN_API_KEY_LENGTH || !BEARER_TOKEN.test(key)) {
      throw new ConfigError(
        'API_KEYS',
        `entry ${index + 1} must be a key of at least ${MIN_API_KEY_LENGTH} letters, digits and - . _ ~ + / (= only at its end), or name:key`,
      );
    }
    return { name, key, scopes };
  });
  keys.forEach(({ name, key }, index) => {
    const first = keys.findIndex((other) => other.name === name || other.key === key);
    if (first < index) {
      throw new ConfigError(
        'API_KEYS',
        `entry ${index + 1} repeats the ${keys[first].name === name ? 'name' : 'key'} of entry ${first + 1}`,
      );
    }
  });
  return keys;
}
