import { randomBytes } from 'node:crypto';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, queryDatabase } from '../support/databases';
import { createWhileOneIsKilled } from '../support/kill-under-load';
import { startService, type ServiceProcess } from '../support/service-process';
import { TEST_API_KEY } from '../support/test-app';
import { scaled, waitFor } from '../support/wait-for';

/**
 * The relay to NATS JetStream (decision 0031), on the NATS server PETSTORE_TEST_NATS_URL names: the built service
 * creates pets under load, one instance is killed (SIGKILL) at a random point and started again, and then the stream
 * holds every committed pet's event exactly once, in a stream of the test's own.
 */
const NATS_URL = process.env.PETSTORE_TEST_NATS_URL;
const CREATES = 3_000;
const INSTANCES = { sqlite: 1, postgres: 2 };
const BOUND_MS = scaled(300_000);
const WAIT_MS = 120_000;

interface Relayed {
  id: string;
  name: string;
  aggregateId: string;
  payload: { petId: { $int64: string } };
}

describe.skipIf(!NATS_URL)(
  `the relay to NATS JetStream${NATS_URL ? '' : ' (skipped: set PETSTORE_TEST_NATS_URL to run it)'}`,
  () => {
    let nc: NatsConnection;
    let manager: JetStreamManager;
    beforeAll(async () => {
      nc = await connect({ servers: NATS_URL });
      manager = await jetstreamManager(nc);
    });
    afterAll(() => nc?.close());

    /** Every message of `stream`, oldest first, with the id JetStream deduplicated it by. */
    async function messagesOf(stream: string): Promise<Array<{ msgId?: string; event: Relayed; subject: string }>> {
      const { state } = await manager.streams.info(stream);
      const messages = [];
      for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
        const message = await manager.streams.getMessage(stream, { seq });
        if (!message) continue;
        messages.push({
          msgId: message.header?.get('Nats-Msg-Id'),
          event: message.json<Relayed>(),
          subject: message.subject,
        });
      }
      return messages;
    }

    for (const kind of DATABASE_KINDS) {
      const instances = INSTANCES[kind.name];
      it.skipIf(kind.skipReason)(
        `${kind.name}, ${instances} instance(s), one killed under load and started again: each event in the stream once${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
        async () => {
          const subject = `petstore-test.${kind.name}.${randomBytes(4).toString('hex')}`;
          const stream = subject.replace(/[.-]/g, '_').toUpperCase();
          const database = await kind.create();
          const running: ServiceProcess[] = [];
          const start = async () => {
            const service = await startService({
              API_KEYS: TEST_API_KEY,
              DATABASE_URL: database.url,
              EVENTS_RELAY_NATS_URL: NATS_URL!,
              EVENTS_RELAY_SUBJECT: subject,
            });
            running.push(service);
            return service;
          };
          try {
            const acked = await createWhileOneIsKilled(start, { instances, creates: CREATES, waitMs: WAIT_MS });
            const pets = (await queryDatabase(database.url, 'SELECT CAST(id AS TEXT) AS id FROM pets')).map((row) =>
              String(row.id),
            );
            await waitFor(
              async () => (await manager.streams.info(stream)).state.messages >= pets.length,
              'the stream to hold every pet event',
              WAIT_MS,
            );
            const messages = await messagesOf(stream);
            // Each committed pet's event once (the copies a killed relay sent again were dropped by their id).
            expect(messages.map((m) => m.event.aggregateId).sort()).toEqual([...pets].sort());
            expect(new Set(messages.map((m) => m.event.id)).size).toBe(messages.length);
            for (const { msgId, event, subject: to } of messages) {
              expect(msgId).toBe(event.id);
              expect(to).toBe(`${subject}.pets.pet-created`);
              expect(event.payload.petId).toEqual({ $int64: event.aggregateId });
            }
            const relayed = new Set(messages.map((m) => m.event.aggregateId));
            expect(acked.filter((id) => !relayed.has(id))).toEqual([]);
          } finally {
            for (const service of running) service.child.kill('SIGKILL');
            await Promise.all(running.map((service) => service.exited));
            await manager.streams.delete(stream).catch(() => undefined);
            await database.drop();
          }
        },
        BOUND_MS,
      );
    }
  },
);
