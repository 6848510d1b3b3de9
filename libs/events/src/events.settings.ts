import { registerAs } from '@nestjs/config';
import { ConfigError, Settings } from '@app/platform';

/** The events' own variables. */
export class EventsSettings {
  private constructor(
    /** How often an idle subscription looks for events published by other instances (its own wake it at once). */
    readonly pollMs: number,
    /** Attempts at one event before it is parked. */
    readonly maxAttempts: number,
    /** How long one attempt of a handler may take before it fails like a throw, its transaction rolled back. */
    readonly handlerTimeoutMs: number,
    /** How long an event every subscriber has handled stays in the outbox. */
    readonly retentionHours: number,
    /** How long a subscription no instance has (its module removed) still holds events back from the prune. */
    readonly orphanGraceHours: number,
    /** The NATS server the relay publishes committed events to (JetStream); none: no relay. */
    readonly relayNatsUrl: string | undefined,
    /** The subjects' prefix: an event goes to `<prefix>.<its name>`, in the stream of that prefix. */
    readonly relaySubject: string,
  ) {}

  /** Reads and checks them; throws a ConfigError naming the variable. */
  static of(settings: Settings): EventsSettings {
    return new EventsSettings(
      settings.integer('EVENTS_POLL_MS', 200, 10, 60_000),
      settings.integer('EVENTS_MAX_ATTEMPTS', 5, 1, 100),
      settings.integer('EVENTS_HANDLER_TIMEOUT_MS', 10_000, 10, 600_000),
      settings.integer('EVENTS_RETENTION_HOURS', 168, 1, 8_760),
      settings.integer('EVENTS_ORPHAN_GRACE_HOURS', 168, 1, 8_760),
      natsUrlOf(settings.text('EVENTS_RELAY_NATS_URL')),
      subjectOf(settings.text('EVENTS_RELAY_SUBJECT') ?? 'petstore.events'),
    );
  }
}

/** A subject prefix JetStream takes: dot-separated tokens of letters, digits, `-` and `_`. */
function subjectOf(prefix: string): string {
  if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(prefix)) {
    throw new ConfigError(
      'EVENTS_RELAY_SUBJECT',
      `must be dot-separated tokens of letters, digits, - and _, such as petstore.events (got "${prefix}")`,
    );
  }
  return prefix;
}

/**
 * A NATS server's URL (`nats://host:4222`, `tls://` for TLS and nothing else); its credentials, if any, are never
 * repeated, and must be percent-encoded where they hold `%`, `@`, `:` or `/` (as the relay decodes them).
 */
function natsUrlOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (!parsed || !['nats:', 'tls:'].includes(parsed.protocol) || parsed.hostname === '') {
    throw new ConfigError('EVENTS_RELAY_NATS_URL', 'must be a NATS server URL such as nats://127.0.0.1:4222');
  }
  for (const [part, value] of [
    ['user', parsed.username],
    ['password', parsed.password],
  ]) {
    if (!isPercentEncoded(value)) {
      throw new ConfigError(
        'EVENTS_RELAY_NATS_URL',
        `has a ${part} with a % that starts no percent-encoding: write % as %25 (and @ as %40, : as %3A, / as %2F)`,
      );
    }
  }
  return url;
}

function isPercentEncoded(value: string): boolean {
  try {
    decodeURIComponent(value);
    return true;
  } catch {
    return false;
  }
}

/** These settings as Nest's configuration names them (`events`): read from the environment when the application starts. */
export const eventsConfig = registerAs('events', (): EventsSettings => EventsSettings.of(new Settings(process.env)));
