import {
  Injectable,
  Logger,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Counter, Histogram } from 'prom-client';
import {
  SqlClient,
  TransactionAbandoned,
  isDatabaseUnavailable,
  isSerializationFailure,
  type TransactionOnDemand,
} from '@app/database';
import { MetricsService, RequestTracing } from '@app/platform';
import type { DomainEvent, Subscription } from '@app/platform/ports';
import { decodePayload } from './event-payload';
import { EventsSettings } from './events.settings';
import { Outbox } from './outbox';
import { NO_HORIZON, type StoredEvent } from './outbox-statements';
import { messageOf } from './error-message';

/**
 * Events handled in one transaction while none fails; after a failure, one at a time until the failing one is known.
 * On SQLite a transaction takes the one write path, so fewer and larger ones are cheaper. On PostgreSQL an open
 * transaction holds back every subscription's reading (the outbox's horizon, outbox-statements.ts): a hundred events of
 * a handler of three statements each kept one open long enough for a fleet of five subscriptions under 750 requests a
 * second to lag past a second (test/slow/fleet-contention.e2e-spec.ts), and twenty keep them within it.
 */
const BATCH = { sqlite: 100, postgres: 20 };
/** The wait before the second attempt at an event; each later one waits twice as long, up to {@link MAX_BACKOFF_MS}. */
const FIRST_BACKOFF_MS = 200;
/**
 * The same after an attempt that held its transaction idle (TransactionAbandoned): on SQLite it held every write of
 * the process meanwhile, and will likely again, so it is tried ten times less often.
 */
const FIRST_BACKOFF_AFTER_IDLE_MS = 2_000;
const MAX_BACKOFF_MS = 60_000;
/** The handling delay's buckets, in seconds: tens of milliseconds when all is well, up to the backoff's minutes. */
const HANDLING_DELAY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
/** The most a subscription's loop pauses before it runs again a transaction PostgreSQL could not serialize. */
const CLASH_PAUSE_MS = 20;
/**
 * How often, at most, an instance reads its database's horizon (outbox-statements.ts), while its subscriptions look:
 * how long a transaction of another database on the server holds its subscribers back, beside the poll.
 */
const HORIZON_EVERY_MS = 100;
/** How often an instance removes events every subscriber has passed, once older than the retention (and at start). */
const PRUNE_EVERY_MS = 60_000;

/** What one look at a subscription found; `handled`: when the events it committed occurred. */
type Cycle =
  | { kind: 'handled'; handled: string[] }
  | { kind: 'idle'; after: Progress }
  | { kind: 'elsewhere'; handled: string[] }
  | { kind: 'waiting'; untilMs: number }
  | { kind: 'replayed'; event: StoredEvent }
  | { kind: 'stopped'; handled: string[] }
  | {
      kind: 'failed';
      event: StoredEvent;
      error: unknown;
      first: boolean;
      attempts: number;
      replay: boolean;
      handled: string[];
    };

/** A handler's attempt that ran past EVENTS_HANDLER_TIMEOUT_MS: failed like a throw, its transaction rolled back. */
class HandlerTimedOut extends Error {
  constructor(ms: number) {
    super(`the handler did not finish within ${ms} ms (EVENTS_HANDLER_TIMEOUT_MS)`);
    this.name = 'HandlerTimedOut';
  }
}

/** The subscription was claimed by another instance, or moved, between the look and the transaction. */
class ClaimLost extends Error {
  constructor() {
    super('another instance handles this subscription');
  }
}

/** The service stops: the attempt under way is rolled back, and counts as none. */
export class Stopping extends Error {
  constructor() {
    super('the service is stopping');
  }
}

/**
 * Runs each subscription after the commits: one loop per subscription in each instance, which handles its next events
 * in a transaction of the subscription's own, with the subscription's progress (its inbox) moved in the same one. On
 * PostgreSQL the subscription's row is taken `FOR UPDATE SKIP LOCKED`: one instance at a time handles a subscriber's
 * events, the others skip it. On SQLite every transaction holds the file's write lock, which two processes take in turn.
 */
@Injectable()
export class Dispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Events');
  private readonly loops: SubscriptionLoop[] = [];
  private pruner?: NodeJS.Timeout;
  private readonly handled?: Counter<'subscriber'>;
  private readonly failures?: Counter<'subscriber'>;
  private readonly parked?: Counter<'subscriber'>;
  private readonly delay?: Histogram<'subscriber'>;
  /** Per subscriber, when the oldest event it has not handled occurred (as of its last look); absent: none waits. */
  private readonly oldestWaiting = new Map<string, number>();
  /** Per subscriber of this instance, the progress it last read or committed: a row deleted by hand is made again at it. */
  private readonly lastProgress = new Map<string, Progress>();
  /** Subscriptions' rows no module of this instance has, and when an instance that has them last said so. */
  private orphans = new Map<string, number>();
  /**
   * This database's horizon as last read, when, and whether a read of it is under way: on PostgreSQL none until the
   * first read (the server's holds meanwhile); on SQLite past every event.
   */
  private readonly localHorizon: { value: bigint; readAt: number; reading: boolean };

  constructor(
    private readonly db: SqlClient,
    private readonly outbox: Outbox,
    private readonly settings: EventsSettings,
    @Optional() private readonly tracing?: RequestTracing,
    @Optional() metrics?: MetricsService,
  ) {
    this.localHorizon = { value: db.isPostgres ? 0n : BigInt(NO_HORIZON), readAt: 0, reading: false };
    this.handled = metrics?.counter('events_handled_total', 'Events a subscriber handled, by subscriber.', [
      'subscriber',
    ]);
    this.failures = metrics?.counter(
      'events_handler_failures_total',
      'Attempts at an event that failed and were undone, by subscriber.',
      ['subscriber'],
    );
    this.parked = metrics?.counter(
      'events_parked_total',
      'Events set aside after every attempt failed (npm run events -- parked), by subscriber.',
      ['subscriber'],
    );
    this.delay = metrics?.histogram(
      'events_handling_delay_seconds',
      'From an event (its change, just before the commit) to its handler committed, by subscriber; relay.nats: to the stream.',
      ['subscriber'],
      HANDLING_DELAY_BUCKETS,
    );
    metrics?.gauge(
      'events_lag_seconds',
      'Age of the oldest event a subscriber has not handled, as this instance last looked (0: none waits).',
      ['subscriber'],
      (gauge) => {
        const now = Date.now();
        for (const subscriber of this.outbox.subscriptions.keys()) {
          const oldest = this.oldestWaiting.get(subscriber);
          gauge.set({ subscriber }, oldest === undefined ? 0 : Math.max(0, now - oldest) / 1000);
        }
      },
    );
    metrics?.gauge(
      'events_orphaned_subscription_seconds',
      'Subscriptions no module of this instance has (removed from the code), by subscriber: how long since an instance ' +
        'that has it last said so. Past EVENTS_ORPHAN_GRACE_HOURS it holds no event back from the prune.',
      ['subscriber'],
      (gauge) => {
        gauge.reset();
        const now = Date.now();
        for (const [subscriber, seenAt] of this.orphans) gauge.set({ subscriber }, Math.max(0, now - seenAt) / 1000);
      },
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    const now = Date.now();
    for (const subscription of this.outbox.subscriptions.values()) {
      await this.db.write(this.outbox.statements.register, [subscription.subscriber, subscription.event, now]);
      this.loops.push(new SubscriptionLoop(subscription, this));
    }
    this.outbox.onPublished((name) => {
      for (const loop of this.loops) if (loop.subscription.event === name) loop.wake();
    });
    for (const loop of this.loops) loop.start();
    void this.housekeeping(false);
    this.pruner = setInterval(() => void this.housekeeping(), PRUNE_EVERY_MS).unref();
  }

  /** Stops each subscription: a handler's attempt under way is rolled back at once and counts as none. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.pruner);
    await Promise.all(this.loops.map((loop) => loop.stop()));
  }

  /**
   * One look at `subscription`: its next events handled, or why none was. The look reads outside any transaction; each
   * handler runs in a transaction that its first statement opens (SqlClient.onDemand()), whose first step claims the
   * subscription and checks that it has not moved since the look. Consecutive handlers that go straight to the
   * database share one transaction; a handler that first waits on something else (an outbound call) lets the events
   * before it commit, and holds nothing while it waits: on SQLite no handler holds the one write path longer than its
   * own statements, and one that waits inside its transaction is stopped by the fence (DATABASE_TRANSACTION_IDLE_MS).
   */
  async cycle(subscription: Subscription, oneAtATime: boolean, stopped: Promise<never>): Promise<Cycle> {
    const statements = this.outbox.statements;
    const { subscriber } = subscription;
    const [row] = await this.db.read<Looked>(statements.look, [subscriber]);
    if (row === undefined) {
      await this.remake(subscriber, subscription.event, this.lastProgress.get(subscriber));
      return { kind: 'elsewhere', handled: [] };
    }
    this.lastProgress.set(subscriber, [row.afterTransaction, row.afterPosition]);
    const [parked] = await this.db.read<StoredEvent>(statements.nextReplay, [subscriber]);
    // A parked event an operator asked to replay goes first, whatever the head's backoff.
    if (parked !== undefined) return this.replay(subscription, parked, stopped);
    const retryAt = Number(row.retryAt);
    if (retryAt > Date.now()) return { kind: 'waiting', untilMs: retryAt };
    const attempts = row.attempts;
    const events = await this.db.read<StoredEvent>(statements.next, [
      subscription.event,
      row.afterTransaction,
      row.afterPosition,
      oneAtATime || attempts > 0 ? 1 : this.db.isPostgres ? BATCH.postgres : BATCH.sqlite,
      this.horizon(row.horizon),
    ]);
    if (events.length === 0) {
      this.oldestWaiting.delete(subscriber);
      return { kind: 'idle', after: [row.afterTransaction, row.afterPosition] };
    }
    this.oldestWaiting.set(subscriber, Number(events[0].occurredAt));

    /** The progress the subscription's row has once what this cycle committed is committed: checked as each transaction begins. */
    let expected: Progress = [row.afterTransaction, row.afterPosition];
    /** Events handled (their handlers returned), of which the first `closed` have a commit asked, `committed` done. */
    let advanced = 0;
    let closed = 0;
    let committed = 0;
    const commits: Array<Promise<void>> = [];
    const transaction = this.db.onDemand(async () => {
      const [claimed] = await this.db.read<Claimed>(statements.claim, [subscriber]);
      if (claimed?.afterTransaction !== expected[0] || claimed.afterPosition !== expected[1]) throw new ClaimLost();
      if (claimed.attempts !== attempts) throw new ClaimLost();
    });
    /** Commits the open transaction with the progress past the events handled so far, its last statement. */
    const commit = () => {
      const through = advanced;
      closed = through;
      const progress = progressOf(events[through - 1]);
      expected = progress;
      commits.push(
        transaction.commit({ sql: statements.advance, parameters: [subscriber, ...progress] }).then(() => {
          committed = Math.max(committed, through);
          this.lastProgress.set(subscriber, progress);
        }),
      );
    };
    const handled = () => events.slice(0, committed).map((event) => event.occurredAt);

    for (const [index, event] of events.entries()) {
      transaction.mark();
      // A handler that does not go straight to the database (its first statement not sent within this turn of the
      // event loop) lets the events before it commit first, and its own commit once it returns: the next one will
      // likely wait too, and the write path must not wait with it.
      let waited = false;
      const check = setImmediate(() => {
        if (transaction.usedSinceMark) return;
        waited = true;
        if (transaction.isOpen) commit();
      });
      try {
        await this.attempt(subscription, event, transaction, stopped);
        clearImmediate(check);
        advanced = index + 1;
        if (waited && transaction.isOpen) commit();
      } catch (error) {
        clearImmediate(check);
        await transaction.abandon(failureOf(error));
        await Promise.allSettled(commits);
        const cause = transaction.failure ?? error;
        if (cause instanceof Stopping) return { kind: 'stopped', handled: handled() };
        if (cause instanceof ClaimLost) return { kind: 'elsewhere', handled: handled() };
        // The database's failure is no handler's: the loop waits and looks again, and no attempt is counted.
        if (transaction.failure !== undefined || (isDatabaseUnavailable(cause) && !isHandlersOwn(cause))) throw cause;
        const first = committed === index;
        return { kind: 'failed', event, error, first, attempts, replay: false, handled: handled() };
      }
    }
    try {
      // Handlers that made no statement since the last commit: their progress is written in a transaction of its own.
      if (!transaction.isOpen && advanced > closed) {
        const last = events[advanced - 1];
        await transaction.within(() => this.advance(subscriber, last));
      }
      if (transaction.isOpen) commit();
      await Promise.all(commits);
    } catch (error) {
      await transaction.abandon(failureOf(error));
      await Promise.allSettled(commits);
      if (error instanceof ClaimLost || transaction.failure instanceof ClaimLost) {
        return { kind: 'elsewhere', handled: handled() };
      }
      throw error;
    }
    return { kind: 'handled', handled: handled() };
  }

  /** A parked event an operator asked to replay: handled, and unparked in the handler's transaction. */
  private async replay(subscription: Subscription, parked: StoredEvent, stopped: Promise<never>): Promise<Cycle> {
    const statements = this.outbox.statements;
    const { subscriber } = subscription;
    const transaction = this.db.onDemand(async () => {
      const [claimed] = await this.db.read<Claimed>(statements.claim, [subscriber]);
      const [still] = await this.db.read(statements.replayAsked, [subscriber, parked.id]);
      if (claimed === undefined || still === undefined) throw new ClaimLost();
    });
    try {
      await this.attempt(subscription, parked, transaction, stopped);
      await transaction.within(() => this.db.write(statements.unpark, [subscriber, parked.id]));
      await transaction.commit();
      return { kind: 'replayed', event: parked };
    } catch (error) {
      await transaction.abandon(failureOf(error));
      const cause = transaction.failure ?? error;
      if (cause instanceof Stopping) return { kind: 'stopped', handled: [] };
      if (cause instanceof ClaimLost) return { kind: 'elsewhere', handled: [] };
      if (transaction.failure !== undefined || (isDatabaseUnavailable(cause) && !isHandlersOwn(cause))) throw cause;
      return { kind: 'failed', event: parked, error, first: true, attempts: 0, replay: true, handled: [] };
    }
  }

  /**
   * Runs the handler of `event` in `transaction`, until it returns, throws, or its deadline passes; or until the
   * transaction breaks (the fence closed it, the claim was lost) or the service stops. Whatever it does after that
   * is refused: its statements find the transaction closed.
   */
  private async attempt(
    subscription: Subscription,
    event: StoredEvent,
    transaction: TransactionOnDemand,
    stopped: Promise<never>,
  ): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      const ms = this.settings.handlerTimeoutMs;
      timer = setTimeout(() => reject(new HandlerTimedOut(ms)), ms);
    });
    try {
      await Promise.race([
        transaction.within(() => this.handle(subscription, event)),
        transaction.interrupted,
        deadline,
        stopped,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async advance(subscriber: string, event: StoredEvent): Promise<void> {
    await this.db.write(this.outbox.statements.advance, [subscriber, event.transactionId, event.position]);
  }

  private handle(subscription: Subscription, stored: StoredEvent): Promise<void> {
    const event: DomainEvent = {
      id: stored.id,
      name: stored.name,
      version: stored.version,
      occurredAt: new Date(Number(stored.occurredAt)).toISOString(),
      aggregateId: stored.aggregateId,
      payload: decodePayload(stored.payload),
    };
    const work = () => subscription.handle(event);
    if (!this.tracing) return work();
    const attributes = {
      'messaging.operation.type': 'process',
      'messaging.destination.name': stored.name,
      'messaging.message.id': stored.id,
      'petstore.events.subscriber': subscription.subscriber,
    };
    return this.tracing.linked(`process ${stored.name}`, stored.traceParent, attributes, work);
  }

  /**
   * Whether an event may wait after `after` (the progress a subscription last had here), or a replay an operator asked
   * for: reads outside any transaction, so that an idle subscription's poll takes no write lock. Another instance may
   * have moved on since: then the cycle that follows finds nothing, and learns the progress.
   */
  async mayHaveWaiting(subscription: Subscription, after: Progress): Promise<boolean> {
    const [next] = await this.db.read<{ occurredAt: string }>(this.outbox.statements.pending, [
      subscription.event,
      ...after,
      this.horizon(),
    ]);
    if (next !== undefined) {
      this.oldestWaiting.set(subscription.subscriber, Number(next.occurredAt));
      return true;
    }
    const statements = this.outbox.statements;
    const { subscriber } = subscription;
    const asked = await this.db.read<{ eventId: string; gone: number }>(statements.replayWaiting, [subscriber]);
    const gone = asked.filter((replay) => Number(replay.gone) === 1);
    if (gone.length > 0) {
      // Its event's outbox row was deleted by hand: there is nothing to replay, and it would be looked for every poll.
      await this.db.write(statements.dropGone, [subscriber]);
      this.logger.warn({
        msg: 'parked events whose outbox row is gone were dropped: nothing is left to replay',
        subscriber,
        eventIds: gone.map((replay) => replay.eventId),
      });
    }
    return asked.length > gone.length;
  }

  /**
   * A subscription's row deleted by hand (the relay's too): made again at the progress this instance last read or
   * committed (the outbox's start if it has none), so that it goes on from there, not from the start, and the prune
   * keeps what it has not passed.
   */
  async remake(subscriber: string, event: string, progress: Progress = ['0', '0']): Promise<void> {
    const [transactionId, position] = progress;
    await this.db.write(this.outbox.statements.registerAt, [subscriber, event, transactionId, position, Date.now()]);
    this.logger.warn({
      msg: "the subscription's progress row was missing: made again at the progress this instance last saw",
      subscriber,
      afterTransaction: transactionId,
      afterPosition: position,
    });
  }

  /** Events `subscriber` handled, which occurred at these times (ms since the epoch), now committed. */
  counted(subscriber: string, occurredAt: string[]): void {
    if (occurredAt.length === 0) return;
    this.handled?.inc({ subscriber }, occurredAt.length);
    const now = Date.now();
    for (const at of occurredAt) this.delay?.observe({ subscriber }, Math.max(0, now - Number(at)) / 1000);
  }

  /**
   * A failed attempt at the event at the head of `subscription`, recorded for the fleet: it is tried again after a
   * backoff, or, at the last attempt, parked and the subscription moves past it. Recorded only if the subscription has
   * not moved meanwhile (another instance may have handled it).
   */
  async failed(subscription: Subscription, failure: Extract<Cycle, { kind: 'failed' }>): Promise<void> {
    const { subscriber } = subscription;
    const { event, error } = failure;
    const attempts = failure.attempts + 1;
    const message = failureOf(error);
    this.failures?.inc({ subscriber });
    const statements = this.outbox.statements;
    await this.db.transaction(async () => {
      const [claimed] = await this.db.read<Claimed>(statements.claim, [subscriber]);
      if (claimed === undefined || !isHead(claimed, event)) return;
      if (attempts < this.settings.maxAttempts) {
        const first = error instanceof TransactionAbandoned ? FIRST_BACKOFF_AFTER_IDLE_MS : FIRST_BACKOFF_MS;
        const backoff = Math.min(MAX_BACKOFF_MS, first * 2 ** (attempts - 1));
        await this.db.write(statements.failed, [subscriber, attempts, Date.now() + backoff]);
        this.db.onCommit(() =>
          this.logger.warn({ msg: 'event handler failed', subscriber, event: event.name, eventId: event.id, attempts }),
        );
        return;
      }
      await this.db.write(statements.park, [subscriber, event.id, event.position, attempts, message, Date.now()]);
      await this.db.write(statements.advance, [subscriber, event.transactionId, event.position]);
      this.db.onCommit(() => {
        this.parked?.inc({ subscriber });
        this.logger.error({
          msg: 'event parked: every attempt failed (npm run events -- parked; replay <id>)',
          subscriber,
          event: event.name,
          eventId: event.id,
          attempts,
          error: message,
        });
      });
    });
  }

  /**
   * An event the relay can never publish (a message over the server's max_payload, a row that is no event): parked as a
   * subscriber's event that failed every attempt, listed and replayed alike.
   */
  async parkUnpublishable(subscriber: string, event: StoredEvent, reason: string): Promise<void> {
    const error = reason.slice(0, 1024);
    const parked = await this.db.write(this.outbox.statements.parkOnce, [
      subscriber,
      event.id,
      event.position,
      1,
      error,
      Date.now(),
    ]);
    if (parked.changed === 0) return;
    this.parked?.inc({ subscriber });
    this.logger.error({
      msg: 'event parked: it can never be published (npm run events -- parked; replay <id>)',
      subscriber,
      event: event.name,
      eventId: event.id,
      error,
    });
  }

  /** A replay that failed: the event stays parked, its attempt and error recorded, until a replay is asked again. */
  async replayFailed(
    subscription: Pick<Subscription, 'subscriber'>,
    event: StoredEvent,
    error: unknown,
  ): Promise<void> {
    const message = failureOf(error);
    this.failures?.inc({ subscriber: subscription.subscriber });
    await this.db.write(this.outbox.statements.replayFailed, [subscription.subscriber, event.id, message]);
    this.logger.error({
      msg: 'parked event replay failed: it stays parked',
      subscriber: subscription.subscriber,
      event: event.name,
      eventId: event.id,
      error: message,
    });
  }

  replayed(subscription: Pick<Subscription, 'subscriber'>, event: StoredEvent): void {
    this.counted(subscription.subscriber, [event.occurredAt]);
    this.logger.log({ msg: 'parked event replayed', subscriber: subscription.subscriber, eventId: event.id });
  }

  /**
   * At start and every minute: this instance's subscriptions said seen (at start their registration did), the rows of
   * subscriptions it does not have reported (a log line when one first appears, and a metric), and the events every
   * subscriber has passed, older than the retention, removed; a subscription no instance has said it has for
   * EVENTS_ORPHAN_GRACE_HOURS holds none back.
   */
  private async housekeeping(touch = true): Promise<void> {
    const statements = this.outbox.statements;
    const now = Date.now();
    const mine = new Set(this.outbox.subscriptions.keys());
    if (this.settings.relayNatsUrl) mine.add(RELAY);
    try {
      if (touch) for (const subscriber of mine) await this.db.write(statements.seen, [subscriber, now]);
      const rows = await this.db.read<{ subscriber: string; event: string; seenAt: string }>(statements.subscriptions);
      const orphans = new Map(
        rows.filter((row) => !mine.has(row.subscriber)).map((row) => [row.subscriber, Number(row.seenAt)]),
      );
      for (const [subscriber, seenAt] of orphans) {
        if (this.orphans.has(subscriber)) continue;
        this.logger.warn({
          msg:
            'a subscription no module of this instance has: its progress holds events back from the prune until ' +
            'EVENTS_ORPHAN_GRACE_HOURS after an instance that has it last said so (npm run events -- forget <subscriber>)',
          subscriber,
          lastSeen: new Date(seenAt).toISOString(),
          graceHours: this.settings.orphanGraceHours,
        });
      }
      this.orphans = orphans;
      const cutoff = now - this.settings.retentionHours * 3_600_000;
      await this.db.write(statements.prune, [cutoff, now - this.settings.orphanGraceHours * 3_600_000]);
    } catch (error) {
      this.logger.warn({ msg: 'old events could not be removed; tried again in a minute', error: messageOf(error) });
    }
  }

  /**
   * The horizon below which events may be read (outbox-statements.ts): the greater of the server's, as a look read
   * it, and this database's as last read, whose next read starts if the last is over HORIZON_EVERY_MS old.
   */
  horizon(server = '0'): string {
    const local = this.localHorizon;
    if (this.db.isPostgres && !local.reading && Date.now() - local.readAt >= HORIZON_EVERY_MS) {
      local.reading = true;
      this.db
        .read<{ horizon: string }>(this.outbox.statements.localHorizon)
        .then(([row]) => {
          local.value = BigInt(row.horizon) > local.value ? BigInt(row.horizon) : local.value;
          local.readAt = Date.now();
        })
        // The server's horizon still holds; the next look reads this one again.
        .catch(() => undefined)
        .finally(() => (local.reading = false));
    }
    return String(BigInt(server) > local.value ? BigInt(server) : local.value);
  }

  get pollMs(): number {
    return this.settings.pollMs;
  }

  warn(message: string, fields: Record<string, unknown>): void {
    this.logger.warn({ msg: message, ...fields });
  }
}

/** The relay's progress row in `events_subscriptions`, of every event name (`*`): relay/nats-relay.ts. */
export const RELAY = 'relay.nats';

/** A failure as `events_parked` keeps it: its name and message, never its stack, within the column. */
function failureOf(error: unknown): string {
  return messageOf(error, { withName: true }).slice(0, 1024);
}

/** Where a subscription stands: the (transaction id, position) of the last event it handled, as decimal text. */
export type Progress = [string, string];

interface Claimed {
  event: string;
  afterTransaction: string;
  afterPosition: string;
  attempts: number;
  retryAt: string;
}

/** The same, as a look outside any transaction reads it: with the outbox's horizon (outbox-statements.ts). */
interface Looked extends Claimed {
  horizon: string;
}

/** Where a subscription stands once `event` is handled. */
function progressOf(event: StoredEvent): Progress {
  return [event.transactionId, event.position];
}

/** A failure of the handler's own doing, though answered like the database's: it held its transaction idle, or ran out of time. */
function isHandlersOwn(error: unknown): boolean {
  return error instanceof TransactionAbandoned || error instanceof HandlerTimedOut;
}

/** Whether `event` is the one right after the subscription's progress. */
function isHead(claimed: Claimed, event: StoredEvent): boolean {
  const after = [BigInt(claimed.afterTransaction), BigInt(claimed.afterPosition)];
  const at = [BigInt(event.transactionId), BigInt(event.position)];
  return at[0] > after[0] || (at[0] === after[0] && at[1] > after[1]);
}

/** One subscription's loop in this instance: look, handle, wait for a wake or the poll interval, look again. */
class SubscriptionLoop {
  private running?: Promise<void>;
  private stopping = false;
  /** Rejected as the service stops: the handler's attempt under way is rolled back at once, and counts as none. */
  private readonly stopped = Promise.withResolvers<never>();
  private wakeUp?: () => void;
  private woken = false;
  /** After a batch failed: one event at a time, until the failing one has been recorded. */
  private oneAtATime = false;
  /** The progress the last cycle found with nothing after it: the next poll first looks, without a transaction. */
  private idleAfter?: Progress;

  constructor(
    readonly subscription: Subscription,
    private readonly dispatcher: Dispatcher,
  ) {}

  start(): void {
    this.stopped.promise.catch(() => undefined);
    this.running = this.run();
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.stopped.reject(new Stopping());
    this.wakeUp?.();
    await this.running;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      const waitMs = await this.once();
      if (waitMs > 0 && !this.stopping) await this.sleep(waitMs);
    }
  }

  /** One cycle; how long to wait before the next (0: at once). */
  private async once(): Promise<number> {
    const { subscription, dispatcher } = this;
    const woken = this.woken;
    this.woken = false;
    try {
      const idleAfter = this.idleAfter;
      this.idleAfter = undefined;
      if (!woken && idleAfter && !(await dispatcher.mayHaveWaiting(subscription, idleAfter))) {
        this.idleAfter = idleAfter;
        return dispatcher.pollMs;
      }
      const cycle = await dispatcher.cycle(subscription, this.oneAtATime, this.stopped.promise);
      if ('handled' in cycle) dispatcher.counted(subscription.subscriber, cycle.handled);
      switch (cycle.kind) {
        case 'handled':
        case 'stopped':
          return 0;
        case 'replayed':
          dispatcher.replayed(subscription, cycle.event);
          return 0;
        case 'failed':
          if (cycle.replay) {
            await dispatcher.replayFailed(subscription, cycle.event, cycle.error);
            return 0;
          }
          if (!cycle.first) {
            // An event after the first of a batch failed: those before it go one by one, then it is the head.
            this.oneAtATime = true;
            return 0;
          }
          await dispatcher.failed(subscription, cycle);
          this.oneAtATime = false;
          return 0;
        case 'waiting':
          return Math.max(1, Math.min(cycle.untilMs - Date.now(), dispatcher.pollMs));
        case 'idle':
          this.idleAfter = cycle.after;
          return this.woken ? 0 : dispatcher.pollMs;
        default:
          return this.woken ? 0 : dispatcher.pollMs;
      }
    } catch (error) {
      // PostgreSQL could not serialize the handlers' transaction with another (the claim of a row another instance
      // moved meanwhile, or a clash with a request's transaction): that transaction is rolled back, and no attempt
      // counts. It runs again after a short pause drawn at random (the poll interval would be a delay, none a clash).
      if (isSerializationFailure(error)) return 1 + Math.random() * CLASH_PAUSE_MS;
      dispatcher.warn('events could not be read; looking again', {
        subscriber: subscription.subscriber,
        error: messageOf(error),
      });
      return dispatcher.pollMs;
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const wakeUp = () => done();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        wakeUp();
      };
    });
  }
}
