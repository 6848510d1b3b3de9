import { describe, expect, it } from 'vitest';
import { Settings } from '@app/platform';
import { expectRefusalNaming } from '@test/support/config-errors';
import { EventsSettings } from './events.settings';

const read = (env: Record<string, string>) => EventsSettings.of(new Settings(env));

describe('EventsSettings', () => {
  it('polls every 200 ms, gives a handler 10 s, parks after 5 attempts, keeps a week, and relays nothing by default', () => {
    expect({ ...read({}) }).toEqual({
      pollMs: 200,
      maxAttempts: 5,
      handlerTimeoutMs: 10_000,
      retentionHours: 168,
      orphanGraceHours: 168,
      relayNatsUrl: undefined,
      relaySubject: 'petstore.events',
    });
  });

  it('relays to the NATS server and under the subject given', () => {
    const settings = read({
      EVENTS_RELAY_NATS_URL: 'tls://relay:secret@nats.internal:4222',
      EVENTS_RELAY_SUBJECT: 'shop.pets_v1',
    });
    expect([settings.relayNatsUrl, settings.relaySubject]).toEqual([
      'tls://relay:secret@nats.internal:4222',
      'shop.pets_v1',
    ]);
  });

  it('refuses a URL that is no NATS server, without repeating it (it may hold a password)', () => {
    for (const url of ['http://nats.internal:4222', 'nats.internal:4222', 'nats://relay:secret@']) {
      expectRefusalNaming(() => read({ EVENTS_RELAY_NATS_URL: url }), 'EVENTS_RELAY_NATS_URL');
      expect(() => read({ EVENTS_RELAY_NATS_URL: url })).not.toThrow(/secret/);
    }
  });

  it('refuses a user or password with a bare %, naming the variable and how to write it, without repeating it', () => {
    for (const url of ['nats://relay:50%off@nats.internal:4222', 'tls://re%lay:secret@nats.internal:4222']) {
      expect(() => read({ EVENTS_RELAY_NATS_URL: url })).toThrow(
        /^EVENTS_RELAY_NATS_URL has a (user|password) with a % that starts no percent-encoding: write % as %25/,
      );
      expect(() => read({ EVENTS_RELAY_NATS_URL: url })).not.toThrow(/secret|50%off/);
    }
    expect(read({ EVENTS_RELAY_NATS_URL: 'nats://relay:50%25off@nats.internal:4222' }).relayNatsUrl).toBe(
      'nats://relay:50%25off@nats.internal:4222',
    );
  });

  it('refuses a subject JetStream would not take', () => {
    for (const subject of ['petstore.>', 'petstore..events', 'pet store', '.events']) {
      expectRefusalNaming(() => read({ EVENTS_RELAY_SUBJECT: subject }), 'EVENTS_RELAY_SUBJECT');
    }
  });
});
