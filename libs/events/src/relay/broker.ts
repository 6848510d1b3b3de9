import { JetStreamApiError, jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { messageOf } from '../error-message';
import type { StoredEvent } from '../outbox-statements';

/** NATS JetStream as the relay uses it; this module, and the client with it, is loaded only when a relay is set. */
export interface Broker {
  /** The stream the relay makes when none keeps its subjects. */
  readonly stream: string;
  /**
   * Publishes `events` in their order and resolves once the stream acknowledged every one that can be published,
   * with those that never can (a row that is no JSON, a message over the server's `max_payload`), each with why.
   */
  publish(events: StoredEvent[]): Promise<Unpublishable[]>;
  close(): Promise<void>;
}

/** An event no attempt can publish: the relay parks it, as a subscriber's event that failed every attempt. */
export interface Unpublishable {
  event: StoredEvent;
  reason: string;
}

/**
 * The stream takes no event at all until an operator acts: it is full (its `max_msgs` or `max_bytes` reached with
 * `discard: new`), sealed, or acknowledges nothing (`no_ack`, so the relay cannot know what it kept). The relay tries
 * again with its backoff, and reports the state (a log line naming it and the metric
 * `<service>_events_relay_stream_refusing{state}`), parking nothing: every event is published once the stream is
 * mended.
 */
export class StreamRefusing extends Error {
  constructor(
    readonly state: 'full' | 'sealed' | 'no_ack',
    message: string,
  ) {
    super(message);
    this.name = 'StreamRefusing';
  }
}

/** JetStream's codes for a refused publish (nats-server's errors.json). */
const SEALED = 10109;
const STORE_FAILED = 10077;

/** A stream the relay can use was found, or made: told once per connection. */
export type StreamFound = { stream: string; made: boolean; duplicateWindowMs: number };

/** How long the stream the relay makes remembers an event's id: a relay down longer may send a batch twice. */
const DUPLICATE_WINDOW_NS = 60 * 60 * 1e9;
/** How long a publish waits for the stream's acknowledgement. */
const ACK_TIMEOUT_MS = 5_000;

/** The stream of a subject prefix: `petstore.events` is kept by `PETSTORE_EVENTS`. */
export function streamNameOf(subject: string): string {
  return subject.replace(/[.-]/g, '_').toUpperCase();
}

/** What nats.js's `connect()` takes of the relay's URL. */
export interface ConnectionOptions {
  servers: string;
  user?: string;
  pass?: string;
  token?: string;
  /** `tls://`: TLS or no connection (the client refuses a server that offers none, before it sends credentials). */
  tls?: Record<string, never>;
}

/**
 * The server and its credentials apart: nats.js takes the user and password (or a token, a user without password) as
 * options and ignores those of a URL, which the server then refuses ("Authorization Violation"). Nor does it read
 * `tls://` as a demand for TLS: the `tls` option is that demand.
 */
export function connectionOptionsOf(url: string): ConnectionOptions {
  const parsed = new URL(url);
  const servers = `nats://${parsed.host}`;
  const transport = parsed.protocol === 'tls:' ? { servers, tls: {} } : { servers };
  const user = decodeURIComponent(parsed.username);
  const pass = decodeURIComponent(parsed.password);
  if (user === '') return transport;
  return pass === '' ? { ...transport, token: user } : { ...transport, user, pass };
}

/**
 * A broker that connects on first use, and again once its connection closed (the relay waits and tries again): the
 * client does not reconnect by itself. Before its first publish on a connection, and again after any publish
 * failed, it makes sure a stream keeps its subjects: the stream that does (an operator's own, under any name, used as
 * it is when it takes all of them), or one it makes, with an hour's duplicate window. So a stream deleted by hand, or
 * a server restarted with its store wiped, is made again at the next attempt. A stream that takes only some of the
 * subjects, or one of the relay's name that takes others, is refused with an error naming it, at every attempt,
 * until an operator mends it.
 */
export function natsBroker(url: string, subject: string, found: (stream: StreamFound) => void): Broker {
  const stream = streamNameOf(subject);
  const all = `${subject}.>`;
  let connection: Promise<NatsConnection> | undefined;
  let checked = false;
  /** The stream found keeping the subjects, named in what a refusal says. */
  let holding = stream;
  const connected = async () => {
    const open = await connection?.catch(() => undefined);
    if (open && !open.isClosed()) return open;
    // No reconnecting client: one that reconnects sends what it buffered meanwhile, read before the outage, perhaps
    // relayed by another instance since. A new connection sends only what the next look reads.
    const current = connect({ ...connectionOptionsOf(url), name: 'petstore-event-relay', reconnect: false });
    connection = current;
    checked = false;
    current.catch(() => {
      if (connection === current) connection = undefined;
    });
    return current;
  };
  const ensureStream = async (nc: NatsConnection) => {
    const manager = await jetstreamManager(nc);
    const holder = await streamHolding(manager, all);
    if (holder !== undefined) {
      const { config } = await manager.streams.info(holder);
      if (!config.subjects?.some((taken) => covers(taken, all))) {
        throw new Error(
          `the stream ${holder} takes some of the relay's subjects but not all (its subjects: ${config.subjects?.join(', ')}): ` +
            `give it ${all}, or remove it and the relay makes ${stream}`,
        );
      }
      if (config.no_ack) {
        throw new StreamRefusing(
          'no_ack',
          `the stream ${holder} acknowledges nothing (no_ack), so the relay cannot know what it kept: turn no_ack off`,
        );
      }
      holding = holder;
      found({ stream: holder, made: false, duplicateWindowMs: Number(config.duplicate_window ?? 0) / 1e6 });
      return;
    }
    try {
      await manager.streams.add({ name: stream, subjects: [all], duplicate_window: DUPLICATE_WINDOW_NS });
    } catch (error) {
      throw new Error(
        `the stream ${stream} could not be made for ${all} (${messageOf(error)}): a stream of that name for other ` +
          'subjects, or one that overlaps them, is in the way',
        { cause: error },
      );
    }
    holding = stream;
    found({ stream, made: true, duplicateWindowMs: DUPLICATE_WINDOW_NS / 1e6 });
  };
  return {
    stream,
    async publish(events) {
      const nc = await connected();
      if (!checked) {
        await ensureStream(nc);
        checked = true;
      }
      const client = jetstream(nc);
      const unpublishable: Unpublishable[] = [];
      const maxPayload = nc.info?.max_payload ?? Infinity;
      const sent: Array<Promise<unknown>> = [];
      // Sent together on one connection, which keeps their order; each acknowledged, or the batch fails.
      for (const event of events) {
        const meta = headers();
        if (event.traceParent) meta.set('traceparent', event.traceParent);
        let body: string;
        try {
          body = JSON.stringify(messageBody(event));
        } catch (error) {
          unpublishable.push({ event, reason: `its outbox row is not an event (${messageOf(error)})` });
          continue;
        }
        const published = client.publish(`${subject}.${event.name}`, body, {
          msgID: event.id,
          headers: meta,
          timeout: ACK_TIMEOUT_MS,
        });
        sent.push(
          published.catch((error: unknown) => {
            const reason = refusalOf(error, holding, () => Buffer.byteLength(body), maxPayload);
            if (reason === undefined) throw error;
            unpublishable.push({ event, reason });
          }),
        );
      }
      try {
        await Promise.all(sent);
      } catch (error) {
        // The stream may be gone (deleted, a store wiped): looked for, and made if need be, before the next attempt.
        checked = false;
        throw error;
      }
      return unpublishable;
    },
    async close() {
      // Every publish was acknowledged or failed already: nothing to drain, and a drain would wait for a server down.
      const nc = await connection?.catch(() => undefined);
      await nc?.close();
    },
  };
}

/**
 * Why no attempt can ever publish this message, if that is what `error` says: the client refused it as larger than
 * the server's `max_payload` (before sending it), or the stream refused this message for good (JetStream answers 400
 * for the message itself: over its `max_msg_size`, headers too large; or its subject holds all the stream keeps of one
 * with `discard_new_per_subject`). A stream that refuses every message (full, sealed) is a StreamRefusing; anything
 * else (a timeout, a connection lost) is tried again as it is.
 */
function refusalOf(error: unknown, stream: string, bytes: () => number, maxPayload: number): string | undefined {
  if (error instanceof JetStreamApiError) {
    if (error.code === SEALED) {
      throw new StreamRefusing(
        'sealed',
        `the stream ${stream} is sealed: it takes no message; unseal it or give the relay another`,
      );
    }
    if (error.code === STORE_FAILED && /per subject/.test(error.message)) {
      return `the stream ${stream} refused it for good: ${error.message} (JetStream ${error.code})`;
    }
    if (error.code === STORE_FAILED) {
      throw new StreamRefusing(
        'full',
        `the stream ${stream} is full (${error.message}, discard new): raise its limits or let it discard old messages`,
      );
    }
    if (error.status === 400)
      return `the stream ${stream} refused it for good: ${error.message} (JetStream ${error.code})`;
    return undefined;
  }
  // The client refuses a message larger than the server takes before sending it: none ever would be.
  if (error instanceof Error && /max_payload/.test(error.message)) {
    return `the message (${bytes()} bytes and its headers) is over the NATS server's max_payload of ${maxPayload} bytes`;
  }
  return undefined;
}

/** The stream that keeps `subjects`, if one does (JetStream answers none when no stream, or more than one, does). */
async function streamHolding(manager: JetStreamManager, subjects: string): Promise<string | undefined> {
  const names: string[] = [];
  for await (const name of manager.streams.names(subjects)) names.push(name);
  if (names.length > 1) {
    throw new Error(`the streams ${names.join(', ')} all take some of the relay's subjects (${subjects}): keep one`);
  }
  return names[0];
}

/** Whether the subject filter `taken` (with `*` and `>`) takes every subject `wanted` (ending in `.>`) does. */
function covers(taken: string, wanted: string): boolean {
  const have = taken.split('.');
  const want = wanted.split('.');
  for (const [index, token] of have.entries()) {
    if (token === '>') return true;
    if (index >= want.length || want[index] === '>') return false;
    if (token !== '*' && token !== want[index]) return false;
  }
  return have.length === want.length;
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
