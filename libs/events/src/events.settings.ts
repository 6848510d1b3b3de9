import type { Settings } from '@app/platform';

/** The events' own variables. */
export class EventsSettings {
  private constructor(
    /** How often an idle subscription looks for events published by other instances (its own wake it at once). */
    readonly pollMs: number,
    /** Attempts at one event before it is parked. */
    readonly maxAttempts: number,
    /** How long an event every subscriber has handled stays in the outbox. */
    readonly retentionHours: number,
  ) {}

  /** Reads and checks them; throws a ConfigError naming the variable. */
  static of(settings: Settings): EventsSettings {
    return new EventsSettings(
      settings.integer('EVENTS_POLL_MS', 200, 10, 60_000),
      settings.integer('EVENTS_MAX_ATTEMPTS', 5, 1, 100),
      settings.integer('EVENTS_RETENTION_HOURS', 168, 1, 8_760),
    );
  }
}
