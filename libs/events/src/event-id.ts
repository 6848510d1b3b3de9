import { randomFillSync } from 'node:crypto';

/**
 * A UUID of version 7 (RFC 9562): the time in milliseconds in its first 48 bits, random bits after. Ids made later
 * sort after earlier ones, so the outbox's unique index on them grows at its end: a batch of events writes a page or
 * two of it, where random (version 4) ids would touch a page of the index each.
 */
export function eventId(now: number): string {
  const bytes = randomFillSync(Buffer.alloc(16));
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
