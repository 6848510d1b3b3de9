import type { SqlDialect } from '@app/database';

/** The outbox's columns as an event is read back: int64s as decimal text, exact on both databases. */
const EVENT_COLUMNS =
  'CAST(o.position AS TEXT) AS position, CAST(o.transaction_id AS TEXT) AS "transactionId", o.id, o.name, ' +
  'o.version, o.aggregate_id AS "aggregateId", CAST(o.occurred_at AS TEXT) AS "occurredAt", o.payload, ' +
  'o.trace_parent AS "traceParent"';

/**
 * On PostgreSQL, a transaction id below which every transaction that may still write an event has ended: a reader
 * moves past an event only once no transaction that began before its own can still commit one behind it (positions
 * come in the order rows were inserted, not committed). Two such bounds, the reader taking the greater:
 * - the server's, `pg_snapshot_xmin`: cheap, read in the statement itself, but it counts the open transactions of
 *   every database on the server, so that a long one in another application's database holds it back;
 * - this database's ({@link LOCAL_HORIZON}): its open transactions alone (`pg_stat_activity.backend_xid`, which every
 *   role reads, and prepared ones), with the next id to be given as its ceiling, read from the statement's snapshot,
 *   taken before them. It reads every backend's status (a third of a millisecond), so an instance reads it at most
 *   every HORIZON_EVERY_MS (dispatcher.ts) and passes it on: a bound read earlier is a bound all the same, if lower.
 * Either way the bound is read before the events are, in an earlier statement or the same one's snapshot, so that a
 * transaction ending between the two is seen by the read of the events.
 */
const XMIN = 'CAST(CAST(pg_snapshot_xmin(pg_current_snapshot()) AS TEXT) AS bigint)';
const XMAX = 'CAST(CAST(pg_snapshot_xmax(pg_current_snapshot()) AS TEXT) AS bigint)';
/** `backend_xid` is 32 bits: widened to the epoch of the snapshot's `xmax`, within 2^31 of it. */
const OPEN_HERE =
  'SELECT CAST(CAST(a.backend_xid AS TEXT) AS bigint) AS xid FROM pg_stat_get_activity(NULL) a ' +
  'WHERE a.datid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND a.backend_xid IS NOT NULL ' +
  'UNION ALL SELECT CAST(CAST(transaction AS TEXT) AS bigint) FROM pg_prepared_xacts WHERE database = current_database()';
const LOCAL_HORIZON =
  'SELECT CAST(LEAST(MIN(x.xmax), MIN(x.xmax - ((x.xmax % 4294967296 - o.xid + 6442450944) % 4294967296 - ' +
  `2147483648))) AS TEXT) AS horizon FROM (SELECT ${XMAX} AS xmax) x LEFT JOIN (${OPEN_HERE}) o ON true`;
/**
 * On SQLite, whose writes are one at a time, an event is settled once it is committed: the horizon is past every
 * transaction id there is (they are all 0).
 */
export const NO_HORIZON = '9223372036854775807';

/** A subscription's row's columns. */
const SUBSCRIPTION =
  'event, CAST(after_transaction AS TEXT) AS "afterTransaction", ' +
  'CAST(after_position AS TEXT) AS "afterPosition", attempts, CAST(retry_at AS TEXT) AS "retryAt"';

/**
 * The id a new aggregate has in its events while the database has not given it its own yet: past int64, so no real
 * id is ever spelled so ({@link insertThenPublish}).
 */
export const PENDING_ID = 2n ** 64n;
const PENDING_INT64 = `{"$int64":"${PENDING_ID}"}`;

/**
 * PostgreSQL: a new aggregate's row (`insert`, an `INSERT ... RETURNING CAST(id AS TEXT) AS id` with parameters
 * `$1..$n`) and its events (`$<n+1>`: `publishRows`' JSON array, made while its id was {@link PENDING_ID}), as one
 * statement, which commits by itself: the events take the id the insert returns, in `aggregate_id` and wherever the
 * payload spells the pending id as an int64 (`{"$int64":"..."}`, which no JSON string can hold unescaped). Its one
 * row is the new id, as `insert` returns it.
 */
export function insertThenPublish(insert: string, rowsParameter: number): string {
  const id = '(SELECT id FROM w)';
  return (
    `WITH w AS (${insert}) ` +
    'INSERT INTO events_outbox (id, name, version, aggregate_id, occurred_at, payload, transaction_id, trace_parent) ' +
    `SELECT r->>0, r->>1, CAST(r->>2 AS integer), CASE WHEN r->>3 = '${PENDING_ID}' THEN ${id} ELSE r->>3 END, ` +
    `CAST(r->>4 AS bigint), replace(r->>5, '${PENDING_INT64}', '{"$int64":"' || ${id} || '"}'), ` +
    'CAST(CAST(pg_current_xact_id() AS TEXT) AS bigint), r->>6 ' +
    `FROM jsonb_array_elements(CAST($${rowsParameter} AS jsonb)) WITH ORDINALITY AS rows(r, n) ORDER BY n ` +
    `RETURNING ${id} AS id`
  );
}

/** The statements of the outbox and the subscriptions, written once for both databases. */
export function outboxStatements(dialect: SqlDialect, postgres: boolean) {
  const after = '(o.transaction_id, o.position) > ($2, $3)';
  const horizon = postgres ? XMIN : NO_HORIZON;
  return {
    publish: dialect.statement(
      'INSERT INTO events_outbox (id, name, version, aggregate_id, occurred_at, payload, transaction_id, trace_parent) ' +
        `VALUES ($1, $2, $3, $4, $5, $6, ${postgres ? 'CAST(CAST(pg_current_xact_id() AS TEXT) AS bigint)' : '0'}, $7)`,
    ),
    /** The same, for rows given as one JSON array of `publish`'s parameters: a unit of work's events, one statement. */
    publishRows: dialect.statement(
      'INSERT INTO events_outbox (id, name, version, aggregate_id, occurred_at, payload, transaction_id, trace_parent) ' +
        (postgres
          ? 'SELECT r->>0, r->>1, CAST(r->>2 AS integer), r->>3, CAST(r->>4 AS bigint), r->>5, ' +
            'CAST(CAST(pg_current_xact_id() AS TEXT) AS bigint), r->>6 ' +
            'FROM jsonb_array_elements(CAST($1 AS jsonb)) WITH ORDINALITY AS rows(r, n) ORDER BY n'
          : 'SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, 0, value ->> 6 ' +
            'FROM json_each($1) ORDER BY key'),
    ),
    /** A subscription of this instance, seen now: made if new (from the outbox's start), its event kept up to date. */
    register: dialect.statement(
      'INSERT INTO events_subscriptions (subscriber, event, after_transaction, after_position, attempts, retry_at, seen_at) ' +
        'VALUES ($1, $2, 0, 0, 0, 0, $3) ON CONFLICT (subscriber) DO UPDATE SET event = $2, seen_at = $3',
    ),
    /** A subscription's row made again at a progress, if it is missing (an instance's may have made it meanwhile). */
    registerAt: dialect.statement(
      'INSERT INTO events_subscriptions (subscriber, event, after_transaction, after_position, attempts, retry_at, seen_at) ' +
        'VALUES ($1, $2, $3, $4, 0, 0, $5) ON CONFLICT (subscriber) DO NOTHING',
    ),
    /** This instance still has the subscription. */
    seen: dialect.statement('UPDATE events_subscriptions SET seen_at = $2 WHERE subscriber = $1'),
    /** Every subscription's row, as `npm run events -- subscriptions` and the orphans' report read them. */
    subscriptions: dialect.statement(
      'SELECT subscriber, event, CAST(after_transaction AS TEXT) AS "afterTransaction", ' +
        'CAST(after_position AS TEXT) AS "afterPosition", attempts, CAST(seen_at AS TEXT) AS "seenAt" ' +
        'FROM events_subscriptions ORDER BY subscriber',
    ),
    forget: dialect.statement('DELETE FROM events_subscriptions WHERE subscriber = $1'),
    forgetParked: dialect.statement('DELETE FROM events_parked WHERE subscriber = $1'),
    /** The subscription's row, locked for this transaction; none while another instance holds it (PostgreSQL). */
    claim: dialect.statement(
      `SELECT ${SUBSCRIPTION} FROM events_subscriptions WHERE subscriber = $1${postgres ? ' FOR UPDATE SKIP LOCKED' : ''}`,
    ),
    /** The subscription's row as it is now, read outside any transaction, with the server's horizon. */
    look: dialect.statement(
      `SELECT ${SUBSCRIPTION}, CAST(${horizon} AS TEXT) AS horizon FROM events_subscriptions WHERE subscriber = $1`,
    ),
    /** The events after a progress ($2, $3), of transactions below a horizon ($5) read before. */
    next: dialect.statement(
      `SELECT ${EVENT_COLUMNS} FROM events_outbox o WHERE o.name = $1 AND ${after} AND o.transaction_id < $5 ` +
        'ORDER BY o.transaction_id, o.position LIMIT $4',
    ),
    /** Whether anything waits, read without a transaction: an idle subscription's cheap look ($4: this database's horizon). */
    pending: dialect.statement(
      `SELECT CAST(o.occurred_at AS TEXT) AS "occurredAt" FROM events_outbox o WHERE o.name = $1 AND ${after} ` +
        `AND o.transaction_id < ${postgres ? `GREATEST(${XMIN}, $4)` : '$4'} ORDER BY o.transaction_id, o.position LIMIT 1`,
    ),
    /** This database's horizon (PostgreSQL). */
    localHorizon: dialect.statement(LOCAL_HORIZON),
    advance: dialect.statement(
      'UPDATE events_subscriptions SET after_transaction = $2, after_position = $3, attempts = 0, retry_at = 0 ' +
        'WHERE subscriber = $1',
    ),
    failed: dialect.statement('UPDATE events_subscriptions SET attempts = $2, retry_at = $3 WHERE subscriber = $1'),
    park: dialect.statement(
      'INSERT INTO events_parked (subscriber, event_id, position, attempts, error, parked_at) ' +
        'VALUES ($1, $2, $3, $4, $5, $6)',
    ),
    /** The same, once however many instances park it (the relay's, which every instance runs). */
    parkOnce: dialect.statement(
      'INSERT INTO events_parked (subscriber, event_id, position, attempts, error, parked_at) ' +
        'VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (subscriber, event_id) DO NOTHING',
    ),
    /** Every parked event, oldest first, with the event itself. */
    parked: dialect.statement(
      `SELECT p.subscriber, p.attempts, p.error, CAST(p.parked_at AS TEXT) AS "parkedAt", ` +
        `CAST(p.replay_requested_at AS TEXT) AS "replayRequestedAt", ${EVENT_COLUMNS} ` +
        'FROM events_parked p JOIN events_outbox o ON o.position = p.position ORDER BY p.parked_at, p.subscriber',
    ),
    /** Asks for a replay of one parked event, for every subscriber that parked it or for one. */
    requestReplay: dialect.statement(
      "UPDATE events_parked SET replay_requested_at = $3 WHERE event_id = $1 AND ($2 = '' OR subscriber = $2)",
    ),
    /** Whether a replay waits for the subscription, and whether its event is still there: an idle poll's second look. */
    replayWaiting: dialect.statement(
      'SELECT p.event_id AS "eventId", CASE WHEN o.position IS NULL THEN 1 ELSE 0 END AS gone FROM events_parked p ' +
        'LEFT JOIN events_outbox o ON o.position = p.position ' +
        'WHERE p.subscriber = $1 AND p.replay_requested_at IS NOT NULL LIMIT 10',
    ),
    /** Parked events of a subscriber whose outbox row is gone (deleted by hand): nothing to replay. */
    dropGone: dialect.statement(
      'DELETE FROM events_parked WHERE subscriber = $1 AND NOT EXISTS ' +
        '(SELECT 1 FROM events_outbox o WHERE o.position = events_parked.position)',
    ),
    /** The parked event a replay was asked for first, with the event itself. */
    nextReplay: dialect.statement(
      `SELECT p.attempts, ${EVENT_COLUMNS} FROM events_parked p JOIN events_outbox o ON o.position = p.position ` +
        'WHERE p.subscriber = $1 AND p.replay_requested_at IS NOT NULL ORDER BY p.replay_requested_at LIMIT 1',
    ),
    /** Whether the replay of one parked event is still asked (not handled by another instance meanwhile). */
    replayAsked: dialect.statement(
      'SELECT 1 AS asked FROM events_parked WHERE subscriber = $1 AND event_id = $2 AND replay_requested_at IS NOT NULL',
    ),
    unpark: dialect.statement('DELETE FROM events_parked WHERE subscriber = $1 AND event_id = $2'),
    /** A replay that failed: parked again as it was, its attempt counted, until another replay is asked for. */
    replayFailed: dialect.statement(
      'UPDATE events_parked SET attempts = attempts + 1, error = $3, replay_requested_at = NULL ' +
        'WHERE subscriber = $1 AND event_id = $2',
    ),
    /** The events after a progress ($1, $2), of every name, below a horizon ($4) read before: the relay's next. */
    nextOfAny: dialect.statement(
      `SELECT ${EVENT_COLUMNS} FROM events_outbox o WHERE (o.transaction_id, o.position) > ($1, $2) ` +
        'AND o.transaction_id < $4 ORDER BY o.transaction_id, o.position LIMIT $3',
    ),
    /** Moves a progress forward, never back (another instance may have moved it further). */
    advanceTo: dialect.statement(
      'UPDATE events_subscriptions SET after_transaction = $2, after_position = $3 ' +
        'WHERE subscriber = $1 AND (after_transaction, after_position) < ($2, $3)',
    ),
    /**
     * Events older than the retention ($1) that every subscription of their name (and the relay's, of every name) has
     * passed, and parked by none; a subscription no instance has said it has since $2 (an orphan's, past its grace)
     * holds none back.
     */
    prune: dialect.statement(
      'DELETE FROM events_outbox WHERE occurred_at < $1 AND NOT EXISTS (SELECT 1 FROM events_subscriptions s ' +
        "WHERE (s.event = events_outbox.name OR s.event = '*') AND s.seen_at >= $2 AND " +
        '(events_outbox.transaction_id, events_outbox.position) > (s.after_transaction, s.after_position)) ' +
        'AND NOT EXISTS (SELECT 1 FROM events_parked p WHERE p.position = events_outbox.position)',
    ),
  };
}

export type OutboxStatements = ReturnType<typeof outboxStatements>;

/** An outbox row as the statements read it. */
export interface StoredEvent {
  position: string;
  transactionId: string;
  id: string;
  name: string;
  version: number;
  aggregateId: string;
  occurredAt: string;
  payload: string;
  traceParent: string | null;
}
