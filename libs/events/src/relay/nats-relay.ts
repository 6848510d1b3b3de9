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
import { Dispatcher } from '../dispatcher';
import { EventsSettings } from '../events.settings';
import { Outbox } from '../outbox';
import type { StoredEvent } from '../outbox-statements';
import type { Broker } from './broker';

/** The relay's progress row in `events_subscriptions`, of every event name (`*`). */
export const RELAY = 'relay.nats';
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
 * from the last acknowledged. Every instance relays (the stream drops the copies). Off unless `EVENTS_RELAY_NATS_URL` is set: then the NATS client is loaded, nothing before.
 */
@Injectable()
export class NatsRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('EventRelay');
  private broker?: Broker;
  private running?: Promise<void>;
  private stopping = false;
  private woken = false;
  private wakeUp?: () => void;
  private readonly failures?: Counter;
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
  }

  async onApplicationBootstrap(): Promise<void> {
    const url = this.settings.relayNatsUrl;
    if (!url) return;
    const { natsBroker } = await import('./broker.js');
    const broker = natsBroker(url, this.settings.relaySubject);
    this.broker = broker;
    await this.db.write(this.outbox.statements.register, [RELAY, '*']);
    this.outbox.onPublished(() => this.wake());
    this.logger.log({
      msg: 'relaying committed events to NATS JetStream',
      stream: broker.stream,
      subject: `${this.settings.relaySubject}.>`,
    });
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

  private wake(): void {
    this.woken = true;
    this.wakeUp?.();
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
      } catch (error) {
        this.failures?.inc();
        backoffMs = Math.min(backoffMs === 0 ? FIRST_BACKOFF_MS : backoffMs * 2, MAX_BACKOFF_MS);
        const reason = error instanceof Error ? error.message : String(error);
        this.logger.warn({ msg: 'events could not be relayed; trying again', error: reason, retryMs: backoffMs });
        await this.sleep(backoffMs);
        continue;
      }
      if (published === 0 && !woken) await this.sleep(this.settings.pollMs);
    }
  }

  /** One look: the next events after the last acknowledged, published, and the progress moved past them. */
  private async relayOnce(): Promise<number> {
    const statements = this.outbox.statements;
    if (!this.sent) {
      const [progress] = await this.db.read<{ afterTransaction: string; afterPosition: string }>(statements.progress, [
        RELAY,
      ]);
      this.sent = [progress.afterTransaction, progress.afterPosition];
    }
    const events = await this.db.read<StoredEvent>(statements.nextOfAny, [...this.sent, BATCH]);
    if (events.length === 0) return 0;
    await this.broker!.publish(events);
    const last = events[events.length - 1];
    this.sent = [last.transactionId, last.position];
    // Counted as a subscriber's: events_handled_total and the handling delay, subscriber="relay.nats".
    this.dispatcher.counted(
      RELAY,
      events.map((event) => event.occurredAt),
    );
    this.save();
    return events.length;
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
          const reason = error instanceof Error ? error.message : String(error);
          this.logger.warn({ msg: "the relay's progress could not be written; written with the next", error: reason });
          return;
        }
      }
    })().finally(() => (this.saving = undefined));
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken || this.stopping) return Promise.resolve();
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
