import {
  Injectable,
  Logger,
  Optional,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { Counter } from 'prom-client';
import { SqlClient } from '@app/database';
import { MetricsService } from '@app/platform';
import { Dispatcher, RELAY } from '../dispatcher';
import { messageOf } from '../error-message';
import { EventsSettings } from '../events.settings';
import { Outbox } from '../outbox';
import type { StoredEvent } from '../outbox-statements';
import { StreamRefusing, type Broker, type StreamFound } from './broker';

/** Events published in one look: sent together, their acknowledgements awaited together. */
const BATCH = 100;
/** Waits after a failure: doubling from the first, up to the last. */
const FIRST_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 30_000;

/**
 * Publishes every committed event to NATS JetStream, in the outbox's order, for services outside this one (decision
 * 0031). Each message carries the event's id as `Nats-Msg-Id`, so that the stream keeps one copy of an event sent twice
 * within its duplicate window: a relay killed after JetStream acknowledged a batch and before its progress committed
 * sends that batch again on restart, and the stream drops the copies. Progress moves only past events acknowledged,
 * and only forward, so another instance's relay never moves it back; it is written beside the loop, which goes on
 * from the last acknowledged, or from the shared progress if another instance's is further: read before each look, so
 * an instance that was away (cut off from NATS longer than the stream's duplicate window) sends nothing the others
 * relayed meanwhile. Every instance relays (the stream drops the copies). An event no attempt can publish (a message
 * over the server's `max_payload`, an outbox row that is no event) is parked, as a subscriber's event that failed
 * every attempt, and the rest flow; `npm run events -- replay <id>` has the relay try it again. Off unless
 * `EVENTS_RELAY_NATS_URL` is set: then the NATS client is loaded, nothing before.
 */
@Injectable()
export class NatsRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('EventRelay');
  private broker?: Broker;
  private running?: Promise<void>;
  private stopping = false;
  private woken = false;
  private wakeUp?: () => void;
  /** While a failure's wait runs: a commit does not cut it short, only a stop does. */
  private backingOff = false;
  /** The stream last found keeping the subjects. */
  private stream?: string;
  private readonly failures?: Counter;
  /** What keeps the stream from taking any event now (full, sealed, no_ack), while it lasts. */
  private refusing?: StreamRefusing;
  /** The last event the stream acknowledged: where the next look starts (read from the database at first). */
  private sent?: [transactionId: string, position: string];
  /** The write of the progress under way, if any, and whether a newer one waits for it. */
  private saving?: Promise<void>;
  private unsaved = false;

  constructor(
    private readonly db: SqlClient,
    private readonly outbox: Outbox,
    private readonly dispatcher: Dispatcher,
    private readonly settings: EventsSettings,
    @Optional() metrics?: MetricsService,
  ) {
    if (!settings.relayNatsUrl) return;
    this.failures = metrics?.counter(
      'events_relay_failures_total',
      'Looks of the relay that failed to publish (NATS or the database unavailable); each is tried again.',
    );
    metrics?.gauge(
      'events_relay_stream_refusing',
      "1 while the relay's stream takes no event (full, sealed, or no_ack) until an operator mends it; each state 0 otherwise.",
      ['state'],
      (gauge) => {
        for (const state of ['full', 'sealed', 'no_ack'] as const)
          gauge.set({ state }, this.refusing?.state === state ? 1 : 0);
      },
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    const url = this.settings.relayNatsUrl;
    if (!url) return;
    const { natsBroker } = await import('./broker.js');
    const subject = `${this.settings.relaySubject}.>`;
    const broker = natsBroker(url, this.settings.relaySubject, (found) => this.streamFound(found, subject));
    this.broker = broker;
    await this.db.write(this.outbox.statements.register, [RELAY, '*', Date.now()]);
    this.outbox.onPublished(() => this.wake());
    this.logger.log({ msg: 'relaying committed events to NATS JetStream', subject });
    this.running = this.run();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.wakeUp?.();
    await this.running;
    await this.saving;
    if (this.unsaved) this.save();
    await this.saving;
    await this.broker?.close();
  }

  /** The stream the relay publishes into, as found on each connection: logged when it changes. */
  private streamFound({ stream, made, duplicateWindowMs }: StreamFound, subject: string): void {
    const line = { stream, subject, duplicateWindowSeconds: duplicateWindowMs / 1000 };
    if (made) this.logger.warn({ msg: 'no stream kept the relayed subjects: made one', ...line });
    else if (this.stream !== stream)
      this.logger.log({ msg: 'relaying into the stream that keeps the subjects', ...line });
    this.stream = stream;
  }

  private wake(): void {
    this.woken = true;
    if (!this.backingOff) this.wakeUp?.();
  }

  private async run(): Promise<void> {
    let backoffMs = 0;
    while (!this.stopping) {
      const woken = this.woken;
      this.woken = false;
      let published: number;
      try {
        published = await this.relayOnce();
        backoffMs = 0;
        if (this.refusing && published > 0) {
          this.logger.log({ msg: 'the stream takes events again', was: this.refusing.state });
          this.refusing = undefined;
        }
      } catch (error) {
        this.failures?.inc();
        backoffMs = Math.min(backoffMs === 0 ? FIRST_BACKOFF_MS : backoffMs * 2, MAX_BACKOFF_MS);
        const reason = messageOf(error);
        if (error instanceof StreamRefusing && this.refusing?.state !== error.state) {
          // Once a state: the attempts after it are the warnings below.
          this.logger.error({ msg: 'the stream takes no event until it is mended; nothing is parked', error: reason });
        }
        this.refusing = error instanceof StreamRefusing ? error : undefined;
        this.logger.warn({ msg: 'events could not be relayed; trying again', error: reason, retryMs: backoffMs });
        this.backingOff = true;
        await this.sleep(backoffMs);
        this.backingOff = false;
        continue;
      }
      if (published === 0 && !woken) await this.sleep(this.settings.pollMs);
    }
  }

  /**
   * One look: a parked event an operator asked to replay, if any; then the next events after the last acknowledged
   * (here or, if further, by another instance), published, those that never can be parked, and the progress moved past
   * them.
   */
  private async relayOnce(): Promise<number> {
    const statements = this.outbox.statements;
    const [replay] = await this.db.read<StoredEvent>(statements.nextReplay, [RELAY]);
    if (replay !== undefined) return this.replay(replay);
    const [progress] = await this.db.read<{ afterTransaction: string; afterPosition: string; horizon: string }>(
      statements.look,
      [RELAY],
    );
    if (progress === undefined) {
      await this.dispatcher.remake(RELAY, '*', this.sent);
      return 0;
    }
    if (!this.sent || isAfter([progress.afterTransaction, progress.afterPosition], this.sent)) {
      this.sent = [progress.afterTransaction, progress.afterPosition];
    }
    const events = await this.db.read<StoredEvent>(statements.nextOfAny, [
      ...this.sent,
      BATCH,
      this.dispatcher.horizon(progress.horizon),
    ]);
    if (events.length === 0) return 0;
    const unpublishable = await this.broker!.publish(events);
    for (const { event, reason } of unpublishable) await this.dispatcher.parkUnpublishable(RELAY, event, reason);
    const last = events[events.length - 1];
    this.sent = [last.transactionId, last.position];
    // Counted as a subscriber's: events_handled_total and the handling delay, subscriber="relay.nats".
    const parked = new Set(unpublishable.map(({ event }) => event));
    this.dispatcher.counted(
      RELAY,
      events.filter((event) => !parked.has(event)).map((event) => event.occurredAt),
    );
    this.save();
    return events.length;
  }

  /** A parked event published again as an operator asked: unparked once acknowledged, or parked again with why. */
  private async replay(event: StoredEvent): Promise<number> {
    const statements = this.outbox.statements;
    const [again] = await this.broker!.publish([event]);
    if (again) {
      await this.dispatcher.replayFailed({ subscriber: RELAY }, event, new Error(again.reason));
      return 1;
    }
    await this.db.write(statements.unpark, [RELAY, event.id]);
    this.dispatcher.replayed({ subscriber: RELAY }, event);
    return 1;
  }

  /**
   * Writes the progress without the loop waiting for it (on SQLite it waits in the creates' batches): one write at a
   * time, of the latest acknowledged event, and only forward, so that another instance's is never moved back. Until it
   * is written, a relay killed sends those events again, and the stream drops the copies. A write that fails is
   * logged, and made again with the next events, or at shutdown.
   */
  private save(): void {
    this.unsaved = true;
    this.saving ??= (async () => {
      while (this.unsaved) {
        this.unsaved = false;
        const [transactionId, position] = this.sent!;
        try {
          await this.db.write(this.outbox.statements.advanceTo, [RELAY, transactionId, position]);
        } catch (error) {
          this.unsaved = true;
          const reason = messageOf(error);
          this.logger.warn({ msg: "the relay's progress could not be written; written with the next", error: reason });
          return;
        }
      }
    })().finally(() => (this.saving = undefined));
  }

  private sleep(ms: number): Promise<void> {
    if ((this.woken && !this.backingOff) || this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
  }
}

/** Whether progress `a` is after progress `b` (transaction id, then position). */
function isAfter(a: [string, string], b: [string, string]): boolean {
  const [at, ap, bt, bp] = [...a, ...b].map(BigInt);
  return at > bt || (at === bt && ap > bp);
}
