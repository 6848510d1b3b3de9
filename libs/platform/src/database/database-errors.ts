import { QueryFailedError } from 'typeorm';

/** SQLite result codes that mean "not now" rather than "never". */
const SQLITE_TRANSIENT = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_FULL', 'SQLITE_PROTOCOL']);

/** Node socket errors on the way to a database server. */
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs of an unavailable server: connection exceptions (08),
 * insufficient resources (53), operator intervention (57: shutdown, cannot
 * connect now, statement timeout 57014), and lock timeouts (55P03).
 */
const POSTGRES_TRANSIENT = /^(08|53|57)|^55P03$/;

/**
 * Whether `error` says the database could not serve the request right now
 * (locked, unreachable, shutting down, timed out), as opposed to a bug. Such a
 * request is answered 503 with `Retry-After`, never 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const cause = error instanceof QueryFailedError ? error.driverError : error;
  if (typeof cause !== 'object' || cause === null) return false;
  const code = (cause as { code?: unknown }).code;
  const message = String((cause as { message?: unknown }).message ?? '');
  if (typeof code === 'string') {
    if (SQLITE_TRANSIENT.has(code) || NETWORK.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && POSTGRES_TRANSIENT.test(code)) return true;
  }
  // node-postgres reports these without a code.
  return /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connect ECONNREFUSED|Client has encountered a connection error/i.test(message);
}
