import { QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { TransactionAbandoned } from './transaction-fence';

/** SQLite result codes that mean "not now" rather than "never". */
const SQLITE_TRANSIENT = new Set([
  'SQLITE_READONLY',
  'SQLITE_DETACHED',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
  'SQLITE_FULL',
  'SQLITE_PROTOCOL',
]);

/** Node socket errors on the way to a database server. */
const NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL SQLSTATEs of an unavailable server: connection exceptions (08),
 * insufficient resources (53), operator intervention (57: shutdown, cannot
 * connect now, statement timeout 57014), lock timeouts (55P03), a read-only
 * transaction (25006: a standby, or default_transaction_read_only), and a
 * transaction that still could not be serialized after its retries (40001,
 * deadlock 40P01), and a sequence at its end (2200H: a table whose ids are
 * used up is full, as SQLite says of it with SQLITE_FULL).
 */
const POSTGRES_TRANSIENT = /^(08|53|57)|^55P03$|^25006$|^40001$|^40P01$|^2200H$/;

function driverErrorOf(error: unknown): { code?: unknown; message?: unknown } | undefined {
  const cause = error instanceof QueryFailedError ? error.driverError : error;
  return typeof cause === 'object' && cause !== null ? cause : undefined;
}

/**
 * Whether `error` says the database could not serve the request right now
 * (locked, unreachable, shutting down, timed out), as opposed to a bug. Such a
 * request is answered 503 with `Retry-After`, never 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  // TypeORM releases a PostgreSQL query runner whose connection failed (a backend terminated between two statements
  // of a transaction, or a connection lost); the next statement on it is refused with this. The SqlClient releases a
  // runner only once the work on it is done, so here it means the connection was lost.
  if (
    error instanceof QueryRunnerAlreadyReleasedError ||
    error instanceof BatchUndone ||
    error instanceof WriteWaitedTooLong ||
    error instanceof TransactionAbandoned
  ) {
    return true;
  }
  const cause = driverErrorOf(error);
  if (!cause) return false;
  const { code } = cause;
  const message = String(cause.message ?? '');
  if (typeof code === 'string') {
    if (SQLITE_TRANSIENT.has(code) || NETWORK.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && POSTGRES_TRANSIENT.test(code)) return true;
  }
  // node-postgres reports these without a code.
  return /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connect ECONNREFUSED|Client has encountered a connection error/i.test(
    message,
  );
}

/**
 * Whether a commit (or a statement that commits by itself) that failed this way may have been applied all the same:
 * it was sent on a live connection and its answer never came (timed out, connection lost as it waited), the server
 * went down as it answered (SQLSTATE 08: connection exception; 57P01-57P03: shutting down), or SQLite's storage failed
 * as it committed (SQLITE_IOERR). Anything else is the database's refusal, or a failure before the statement was
 * sent: nothing applied (a full disk, SQLITE_FULL, fails before a commit's frames are written).
 */
export function isOutcomeUnknown(error: unknown): boolean {
  const cause = error instanceof QueryFailedError ? driverErrorOf(error) : undefined;
  if (!cause) return false;
  const { code } = cause;
  if (typeof code === 'string') return /^08|^57P0[123]$/.test(code) || ANSWER_LOST.has(code);
  return /^(Query read timeout|Connection terminated unexpectedly)$/.test(String(cause.message ?? ''));
}

/**
 * Socket failures of a connection that was up: whatever was sent on it may have arrived; and SQLite's I/O error, which
 * a commit's fsync may give once its frames are written (a later open can find them committed).
 */
const ANSWER_LOST = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'SQLITE_IOERR']);

/** A write that may have been committed, though the database never said so (answered 503 `commit_unconfirmed`). */
export class UnconfirmedWrite extends Error {
  constructor(override readonly cause: unknown) {
    super('the database did not confirm the commit');
    this.name = 'UnconfirmedWrite';
  }
}

/**
 * A SQLite write batch rolled back because a write carried by one of its jobs failed (decision 0030): this job's write
 * was undone with it, nothing of it kept, and it may be sent again (answered 503 `database_unavailable`).
 */
export class BatchUndone extends Error {
  constructor() {
    super('the write batch was rolled back for another of its writes');
    this.name = 'BatchUndone';
  }
}

/** PostgreSQL refused to commit a transaction that it could not serialize with others (or found deadlocked). */
export function isSerializationFailure(error: unknown): boolean {
  const code = driverErrorOf(error)?.code;
  return code === '40001' || code === '40P01';
}

/**
 * What of `error` may be logged: a failed query carries its SQL parameters
 * (names and other request data) and the driver's details (PostgreSQL's
 * `detail` quotes the values of a violated key), so only the statement, the
 * driver's code and its message are kept, with the stack.
 */
export function withoutRequestData(error: unknown): unknown {
  if (!(error instanceof QueryFailedError)) return error;
  const driverError = error.driverError as { code?: unknown; message?: unknown } | undefined;
  return {
    type: 'QueryFailedError',
    query: error.query,
    code: driverError?.code,
    message: String(driverError?.message ?? error.message),
    stack: error.stack?.replace(/^.*\n/, ''),
  };
}

/** Whether `error` says the database may be read but not written by this process. */
export function isReadOnly(error: unknown): boolean {
  const code = driverErrorOf(error)?.code;
  return code === 'SQLITE_READONLY' || code === '25006';
}

/** A constraint of the schema that a write broke because of what the client asked for. */
export type ConstraintViolation = 'unique' | 'foreign_key';

/**
 * Which constraint `error` reports, if it is a unique or foreign-key
 * violation, on either database. Repositories translate these into domain
 * errors of their own; the global filter answers any left untranslated as 409
 * or 422 rather than 500, since they come from the request, not from a bug.
 */
export function constraintViolationOf(error: unknown): ConstraintViolation | undefined {
  const cause = driverErrorOf(error);
  if (!cause) return undefined;
  const { code } = cause;
  // PostgreSQL: SQLSTATE 23505 unique_violation, 23503 foreign_key_violation.
  if (code === '23505') return 'unique';
  if (code === '23503') return 'foreign_key';
  // SQLite: one result code for every constraint; the message names which.
  if (code === 'SQLITE_CONSTRAINT') {
    const message = String(cause.message ?? '');
    if (/UNIQUE constraint failed|PRIMARY KEY/.test(message)) return 'unique';
    if (/FOREIGN KEY constraint failed/.test(message)) return 'foreign_key';
  }
  return undefined;
}

/**
 * A SQLite write that waited for its batch longer than DATABASE_TIMEOUT_MS and was never run (answered 503
 * `database_unavailable`): the batches ahead of it did not end in time.
 */
export class WriteWaitedTooLong extends Error {
  constructor(waitMs: number) {
    super(`the write waited ${waitMs} ms for the database (DATABASE_TIMEOUT_MS) and was not run`);
    this.name = 'WriteWaitedTooLong';
  }
}
