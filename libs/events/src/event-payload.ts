/**
 * An event's payload as stored: JSON, where a `bigint` is written `{"$int64":"<decimal>"}` and read back as a
 * `bigint`, so that an id past 2^53 stays exact and stays a bigint (JSON's numbers are doubles to most readers).
 */
const INT64 = '$int64';

export function encodePayload(payload: object): string {
  return JSON.stringify(payload, (_key, value: unknown) =>
    typeof value === 'bigint' ? { [INT64]: value.toString() } : value,
  );
}

export function decodePayload(text: string): object {
  return JSON.parse(text, (_key, value: unknown) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const keys = Object.keys(value);
      const digits = (value as Record<string, unknown>)[INT64];
      if (keys.length === 1 && typeof digits === 'string') return BigInt(digits);
    }
    return value;
  }) as object;
}
