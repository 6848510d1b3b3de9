import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import type { StoredEvent } from '../outbox-statements';

/** NATS JetStream as the relay uses it; this module, and the client with it, is loaded only when a relay is set. */
export interface Broker {
  /** The stream that keeps the relay's subjects. */
  readonly stream: string;
  /** Publishes `events` in their order and resolves once the stream acknowledged every one. */
  publish(events: StoredEvent[]): Promise<void>;
  close(): Promise<void>;
}

/** How long the stream the relay makes remembers an event's id: a relay down longer may send a batch twice. */
const DUPLICATE_WINDOW_NS = 60 * 60 * 1e9;
/** How long a publish waits for the stream's acknowledgement. */
const ACK_TIMEOUT_MS = 5_000;

/** The stream of a subject prefix: `petstore.events` is kept by `PETSTORE_EVENTS`. */
export function streamNameOf(subject: string): string {
  return subject.replace(/[.-]/g, '_').toUpperCase();
}

/**
 * A broker that connects on first use, and again after a failed attempt (the relay waits and tries again); once
 * connected, the client reconnects by itself. The stream is made, with an hour's duplicate window, if none has its
 * name: an operator's own (its subjects, window and limits) is used as it is.
 */
export function natsBroker(url: string, subject: string): Broker {
  const stream = streamNameOf(subject);
  let connection: Promise<NatsConnection> | undefined;
  const connected = () => {
    connection ??= (async () => {
      const nc = await connect({ servers: url, name: 'petstore-event-relay', maxReconnectAttempts: -1 });
      try {
        const manager = await jetstreamManager(nc);
        const found = await manager.streams.info(stream).then(
          () => true,
          () => false,
        );
        if (!found) {
          await manager.streams.add({
            name: stream,
            subjects: [`${subject}.>`],
            duplicate_window: DUPLICATE_WINDOW_NS,
          });
        }
        return nc;
      } catch (error) {
        await nc.close();
        throw error;
      }
    })();
    connection.catch(() => (connection = undefined));
    return connection;
  };
  return {
    stream,
    async publish(events) {
      const client = jetstream(await connected());
      // Sent together on one connection, which keeps their order; each acknowledged, or the batch fails.
      await Promise.all(
        events.map((event) => {
          const meta = headers();
          if (event.traceParent) meta.set('traceparent', event.traceParent);
          return client.publish(`${subject}.${event.name}`, JSON.stringify(messageBody(event)), {
            msgID: event.id,
            headers: meta,
            timeout: ACK_TIMEOUT_MS,
          });
        }),
      );
    },
    async close() {
      // Every publish was acknowledged or failed already: nothing to drain, and a drain would wait for a server down.
      const nc = await connection?.catch(() => undefined);
      await nc?.close();
    },
  };
}

/** The event as other services read it: its payload as stored (an int64 as `{"$int64": "..."}`, exact). */
function messageBody(event: StoredEvent) {
  return {
    id: event.id,
    name: event.name,
    version: Number(event.version),
    occurredAt: new Date(Number(event.occurredAt)).toISOString(),
    aggregateId: event.aggregateId,
    payload: JSON.parse(event.payload) as unknown,
  };
}
