import {
  Injectable,
  Logger,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Counter, Histogram } from 'prom-client';
import { SqlClient, isDatabaseUnavailable } from '@app/database';
import { MetricsService, RequestTracing } from '@app/platform';
import type { DomainEvent, Subscription } from '@app/platform/ports';
import { decodePayload } from './event-payload';
import { EventsSettings } from './events.settings';
import { Outbox } from './outbox';
import type { StoredEvent } from './outbox-statements';

/** Events handled in one transaction while none fails; after a failure, one at a time until the failing one is known. */
const BATCH = 100;
/** The wait before the second attempt at an event; each later one waits twice as long, up to {@link MAX_BACKOFF_MS}. */
const FIRST_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 60_000;
/** The handling delay's buckets, in seconds: tens of milliseconds when all is well, up to the backoff's minutes. */
const HANDLING_DELAY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
/** How often an instance removes events every subscriber has passed, once older than the retention (and at start). */
const PRUNE_EVERY_MS = 60_000;

/** What one look at a subscription found. */
type Cycle =
  | { kind: 'handled'; occurredAt: string[] }
  | { kind: 'idle'; after: Progress }
  | { kind: 'elsewhere' }
  | { kind: 'waiting'; untilMs: number }
  | { kind: 'replayed'; event: StoredEvent }
  | { kind: 'failed'; event: StoredEvent; error: unknown; first: boolean; attempts: number; replay: boolean };

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

  constructor(
    private readonly db: SqlClient,
    private readonly outbox: Outbox,
    private readonly settings: EventsSettings,
    @Optional() private readonly tracing?: RequestTracing,
    @Optional() metrics?: MetricsService,
  ) {
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
  }

  async onApplicationBootstrap(): Promise<void> {
    for (const subscription of this.outbox.subscriptions.values()) {
      await this.db.write(this.outbox.statements.register, [subscription.subscriber, subscription.event]);
      this.loops.push(new SubscriptionLoop(subscription, this));
    }
    this.outbox.onPublished((name) => {
      for (const loop of this.loops) if (loop.subscription.event === name) loop.wake();
    });
    for (const loop of this.loops) loop.start();
    void this.prune();
    this.pruner = setInterval(() => void this.prune(), PRUNE_EVERY_MS).unref();
  }

  /** Lets each subscription finish the transaction it is in, and starts none after. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.pruner);
    await Promise.all(this.loops.map((loop) => loop.stop()));
  }

  /** One look at `subscription`: its next events handled in one transaction, or why none was. */
  async cycle(subscription: Subscription, oneAtATime: boolean): Promise<Cycle> {
    let current: StoredEvent | undefined;
    let first = true;
    let replay = false;
    let attempts = 0;
    try {
      return await this.db.transaction(async (): Promise<Cycle> => {
        const statements = this.outbox.statements;
        const [claimed] = await this.db.read<Claimed>(statements.claim, [subscription.subscriber]);
        if (claimed === undefined) return { kind: 'elsewhere' };
        // A parked event an operator asked to replay goes first, whatever the head's backoff.
        const [parked] = await this.db.read<StoredEvent>(statements.nextReplay, [subscription.subscriber]);
        if (parked !== undefined) {
          current = parked;
          replay = true;
          await this.handle(subscription, parked);
          await this.db.write(statements.unpark, [subscription.subscriber, parked.id]);
          return { kind: 'replayed', event: parked };
        }
        attempts = claimed.attempts;
        const retryAt = Number(claimed.retryAt);
        if (retryAt > Date.now()) return { kind: 'waiting', untilMs: retryAt };
        const events = await this.db.read<StoredEvent>(statements.next, [
          subscription.event,
          claimed.afterTransaction,
          claimed.afterPosition,
          oneAtATime || attempts > 0 ? 1 : BATCH,
        ]);
        if (events.length === 0) {
          this.oldestWaiting.delete(subscription.subscriber);
          return { kind: 'idle', after: [claimed.afterTransaction, claimed.afterPosition] };
        }
        this.oldestWaiting.set(subscription.subscriber, Number(events[0].occurredAt));
        for (const event of events) {
          current = event;
          await this.handle(subscription, event);
          first = false;
        }
        const last = events[events.length - 1];
        await this.db.write(statements.advance, [subscription.subscriber, last.transactionId, last.position]);
        return { kind: 'handled', occurredAt: events.map((event) => event.occurredAt) };
      });
    } catch (error) {
      // The database's failure is no handler's: the loop waits and looks again, and no attempt is counted.
      if (current === undefined || isDatabaseUnavailable(error)) throw error;
      return { kind: 'failed', event: current, error, first, attempts, replay };
    }
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
    ]);
    if (next !== undefined) {
      this.oldestWaiting.set(subscription.subscriber, Number(next.occurredAt));
      return true;
    }
    const statements = this.outbox.statements;
    return (await this.db.read(statements.replayWaiting, [subscription.subscriber])).length > 0;
  }

  /** Events `subscriber` handled, which occurred at these times (ms since the epoch), now committed. */
  counted(subscriber: string, occurredAt: string[]): void {
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
    const message = messageOf(error);
    this.failures?.inc({ subscriber });
    const statements = this.outbox.statements;
    await this.db.transaction(async () => {
      const [claimed] = await this.db.read<Claimed>(statements.claim, [subscriber]);
      if (claimed === undefined || !isHead(claimed, event)) return;
      if (attempts < this.settings.maxAttempts) {
        const backoff = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (attempts - 1));
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

  /** A replay that failed: the event stays parked, its attempt and error recorded, until a replay is asked again. */
  async replayFailed(subscription: Subscription, event: StoredEvent, error: unknown): Promise<void> {
    const message = messageOf(error);
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

  replayed(subscription: Subscription, event: StoredEvent): void {
    this.counted(subscription.subscriber, [event.occurredAt]);
    this.logger.log({ msg: 'parked event replayed', subscriber: subscription.subscriber, eventId: event.id });
  }

  private async prune(): Promise<void> {
    const cutoff = Date.now() - this.settings.retentionHours * 3_600_000;
    await this.db.write(this.outbox.statements.prune, [cutoff]).catch((error: unknown) => {
      this.logger.warn({ msg: 'old events could not be removed; tried again in a minute', error: String(error) });
    });
  }

  get pollMs(): number {
    return this.settings.pollMs;
  }

  warn(message: string, fields: Record<string, unknown>): void {
    this.logger.warn({ msg: message, ...fields });
  }
}

/** A failure as `events_parked` keeps it: its name and message, never its stack, within the column. */
function messageOf(error: unknown): string {
  return (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 1024);
}

/** Where a subscription stands: the (transaction id, position) of the last event it handled, as decimal text. */
type Progress = [string, string];

interface Claimed {
  event: string;
  afterTransaction: string;
  afterPosition: string;
  attempts: number;
  retryAt: string;
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
    this.running = this.run();
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopping = true;
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
      const cycle = await dispatcher.cycle(subscription, this.oneAtATime);
      switch (cycle.kind) {
        case 'handled':
          dispatcher.counted(subscription.subscriber, cycle.occurredAt);
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
      dispatcher.warn('events could not be read; looking again', {
        subscriber: subscription.subscriber,
        error: error instanceof Error ? error.message : String(error),
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
