import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { Module } from '@nestjs/common';
import { Client } from 'pg';
import { DatabaseModule, SqlClient } from '@app/database';
import { DomainEvents } from '@app/platform/ports';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApplication } from '../apps/petstore/src/open-application';
import { DATABASE_KINDS, continueIdsAt, postgres, queryDatabase, sqlite } from './support/databases';
import { captured } from './support/command-output';
import { OtlpReceiver } from './support/otlp-receiver';
import { inEnvironment } from './support/environment';
import { AUTH, startTestApp, type TestApp } from './support/test-app';
import { EVENTS_USAGE, EventsModule, Outbox, runEventsCommand } from '@app/events';
import type { PetCreated } from '@app/pets';
import { eventsSettled } from './support/events-settled';
import { waitFor } from './support/wait-for';
import { KENNEL_OPENED, KennelsModule, type KennelOpened } from './support/kennels';

/*
 * A subscriber of this test only, in a module of its own, as a team's would be, to the kennels the test's support
 * opens: the audit module records each event it handles in its own table, in the transaction the dispatcher gives
 * it, and fails on the kennel named "Boom" every time.
 */
class CreateAuditTables1900000000001 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      'CREATE TABLE "audit_seen" ("event_id" varchar(36) NOT NULL, "kennel_id" varchar(20) NOT NULL, ' +
        '"kennel_id_is_bigint" integer NOT NULL, "occurred_at" varchar(24) NOT NULL)',
    );
    await runner.query(
      'CREATE TABLE "audit_pets_seen" ("event_id" varchar(36) NOT NULL, "aggregate_id" varchar(20) NOT NULL, ' +
        '"version" integer NOT NULL, "payload" varchar(400) NOT NULL)',
    );
  }
  async down(): Promise<void> {}
}

/** Whether the audit refuses Boom: until its operator mends it, and replays the parked event. */
/** Whether the audit refuses Boom: until its operator mends it, and replays the parked event; and how often its handler ran, by kennel name. */
const audit = { refusesBoom: true, runs: new Map<string, number>() };

@Module({ imports: [DatabaseModule.forFeature({ migrations: [CreateAuditTables1900000000001] }), EventsModule] })
class AuditModule {
  constructor(events: DomainEvents, db: SqlClient) {
    const insert = db.dialect.statement(
      'INSERT INTO audit_seen (event_id, kennel_id, kennel_id_is_bigint, occurred_at) VALUES ($1, $2, $3, $4)',
    );
    events.subscribe<KennelOpened>({
      subscriber: 'audit.kennels-seen',
      event: KENNEL_OPENED,
      async handle(event) {
        const { kennelId, name } = event.payload;
        audit.runs.set(name, (audit.runs.get(name) ?? 0) + 1);
        await db.write(insert, [event.id, String(kennelId), typeof kennelId === 'bigint' ? 1 : 0, event.occurredAt]);
        if (name === 'Boom' && audit.refusesBoom) throw new Error('the audit cannot take a kennel named Boom');
      },
    });
    // The pets module's event, its type taken from pets' index.ts and nothing else of it.
    const petSeen = db.dialect.statement(
      'INSERT INTO audit_pets_seen (event_id, aggregate_id, version, payload) VALUES ($1, $2, $3, $4)',
    );
    events.subscribe<PetCreated>({
      subscriber: 'audit.pets-seen',
      event: 'pets.pet-created',
      async handle(event) {
        const { petId, name, categoryId, status } = event.payload;
        const exact = typeof petId === 'bigint' && typeof categoryId === 'bigint';
        const payload = JSON.stringify({ petId: String(petId), name, categoryId: String(categoryId), status, exact });
        await db.write(petSeen, [event.id, event.aggregateId, event.version, payload]);
      },
    });
  }
}

const EVENT_TEST_FEATURES = [KennelsModule, AuditModule];

for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `domain events on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let t: TestApp;
      const rows = (sql: string) => queryDatabase(t.database.url, sql);
      const count = async (sql: string) => Number((await rows(sql))[0].n);
      const open = (name: string, key?: string) => {
        const post = t.http().post('/v1/kennels').set(AUTH);
        if (key !== undefined) post.set('idempotency-key', key);
        return post.send({ name });
      };

      beforeAll(async () => {
        audit.refusesBoom = true;
        t = await startTestApp({
          kind,
          features: EVENT_TEST_FEATURES,
          env: { EVENTS_MAX_ATTEMPTS: '2', EVENTS_POLL_MS: '50' },
        });
      });
      afterAll(() => t?.close());

      it('hands every event committed, keyed creates and plain ones, to the subscriber once, after the commit', async () => {
        const answers = await Promise.all(
          Array.from({ length: 60 }, (_, n) => open(`Seen ${n}`, n % 2 === 0 ? `seen-${n}` : undefined)),
        );
        expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
        const ids = answers.map((answer) => answer.body.id as string).sort();
        await waitFor(async () => (await count('SELECT COUNT(*) AS n FROM audit_seen')) >= 60, 'the audit to see 60');
        // Then every event handled, so that a duplicate handled late would be counted below.
        await eventsSettled(t);
        const seen = await rows('SELECT kennel_id, kennel_id_is_bigint FROM audit_seen');
        expect(seen.map((row) => String(row.kennel_id)).sort()).toEqual(ids);
        expect(new Set(seen.map((row) => Number(row.kennel_id_is_bigint)))).toEqual(new Set([1]));
        expect(await count(`SELECT COUNT(*) AS n FROM events_outbox WHERE name = '${KENNEL_OPENED}'`)).toBe(60);
      });

      it('hears pets.pet-created once for each pet created, keyed or plain, exact; nothing for a replay or a refusal', async () => {
        await continueIdsAt(t.database.url, 'pets', 9007199254740993n);
        const create = (n: number) => {
          const post = t.http().post('/v1/pets').set(AUTH);
          if (n % 2 === 0) post.set('idempotency-key', `pet-seen-${n}`);
          return post.send({ name: `Seen pet ${n}`, categoryId: n, ...(n % 3 === 0 ? {} : { status: 'available' }) });
        };
        const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => create(n)));
        expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
        const replay = await create(0);
        expect(replay.status).toBe(201);
        expect(replay.headers['idempotent-replayed']).toBe('true');
        const refused = await t
          .http()
          .post('/v1/pets')
          .set(AUTH)
          .send({ name: 'No status', categoryId: 1, status: 'lost' });
        expect(refused.status).toBe(400);
        await waitFor(
          async () => (await count('SELECT COUNT(*) AS n FROM audit_pets_seen')) >= 40,
          'the audit to see 40 pets',
        );
        await eventsSettled(t);
        const seen = await rows('SELECT aggregate_id, version, payload FROM audit_pets_seen ORDER BY aggregate_id');
        // The ids as the responses spelled them (JSON numbers past 2^53, which JSON.parse would round).
        const ids = answers.map((answer) => /"id":(\d+)/.exec(answer.text)![1]);
        const expected = answers
          .map((answer, n) => ({
            aggregate_id: ids[n],
            version: 1,
            payload: JSON.stringify({
              petId: ids[n],
              name: `Seen pet ${n}`,
              categoryId: String(n),
              status: n % 3 === 0 ? null : 'available',
              exact: true,
            }),
          }))
          .sort((a, b) => (BigInt(a.aggregate_id) < BigInt(b.aggregate_id) ? -1 : 1));
        expect(seen.map((row) => ({ ...row, version: Number(row.version) }))).toEqual(expected);
        expect(ids.every((id) => BigInt(id) >= 9007199254740993n)).toBe(true);
        expect(await count("SELECT COUNT(*) AS n FROM events_outbox WHERE name = 'pets.pet-created'")).toBe(40);
      });

      it('publishes nothing again for a replayed keyed create', async () => {
        const before = await count('SELECT COUNT(*) AS n FROM events_outbox');
        const replay = await open('Seen 0', 'seen-0');
        expect(replay.status).toBe(201);
        expect(replay.headers['idempotent-replayed']).toBe('true');
        expect(await count('SELECT COUNT(*) AS n FROM events_outbox')).toBe(before);
      });

      it('records an event plain and versioned, its int64s exact, and hands them over as bigints', async () => {
        await continueIdsAt(t.database.url, 'kennels', 9007199254740993n);
        const opened = await open('Big');
        expect(opened.status).toBe(201);
        expect(opened.body).toEqual({ id: '9007199254740993', name: 'Big' });
        const [event] = await rows(
          'SELECT id, name, version, aggregate_id, payload FROM events_outbox ' +
            `WHERE aggregate_id = '9007199254740993' AND name = '${KENNEL_OPENED}'`,
        );
        expect(event).toEqual({
          id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
          name: KENNEL_OPENED,
          version: 1,
          aggregate_id: '9007199254740993',
          payload: '{"kennelId":{"$int64":"9007199254740993"},"name":"Big"}',
        });
        await waitFor(
          async () => (await count("SELECT COUNT(*) AS n FROM audit_seen WHERE kennel_id = '9007199254740993'")) === 1,
          'the audit to see the kennel past 2^53',
        );
        const [seen] = await rows("SELECT kennel_id_is_bigint FROM audit_seen WHERE kennel_id = '9007199254740993'");
        expect(seen).toEqual({ kennel_id_is_bigint: 1 });
      });

      it('handles an event another instance published, which no commit here announced, at the next poll', async () => {
        const transactionId = kind.name === 'postgres' ? 'CAST(CAST(pg_current_xact_id() AS TEXT) AS bigint)' : '0';
        await rows(
          'INSERT INTO events_outbox (id, name, version, aggregate_id, occurred_at, payload, transaction_id) VALUES ' +
            `('00000000-0000-4000-8000-000000000001', '${KENNEL_OPENED}', 1, '77', ${Date.now()}, ` +
            `'{"kennelId":{"$int64":"77"},"name":"Elsewhere"}', ${transactionId})`,
        );
        await waitFor(
          async () => (await count("SELECT COUNT(*) AS n FROM audit_seen WHERE kennel_id = '77'")) === 1,
          'the event published elsewhere to be handled',
        );
      });

      it('writes an event only with its change: a transaction undone leaves none, and none is written outside one', async () => {
        const db = t.app.get(SqlClient);
        const events = t.app.get(Outbox);
        const before = await count('SELECT COUNT(*) AS n FROM events_outbox');
        const event = { name: 'tests.undone', version: 1, aggregateId: '1', payload: {} };
        await expect(
          db.transaction(async () => {
            await events.publish(event);
            throw new Error('undone');
          }),
        ).rejects.toThrow('undone');
        await expect(events.publish(event)).rejects.toThrow(
          'tests.undone published outside a transaction: events commit with their change',
        );
        expect(await count('SELECT COUNT(*) AS n FROM events_outbox')).toBe(before);
      });

      it('counts an event once, and wakes its subscribers once, however often PostgreSQL ran its transaction', async () => {
        const db = t.app.get(SqlClient);
        const events = t.app.get(Outbox);
        const metric = async (pattern: RegExp) => Number(pattern.exec((await t.http().get('/metrics')).text)?.[1] ?? 0);
        const retries = () => metric(/^petstore_transaction_retries_total (\d+)$/m);
        const retriedBefore = await retries();
        const opened = await open('Tally');
        expect(opened.status).toBe(201);
        const id = opened.body.id as string;
        const read = db.dialect.statement('SELECT name FROM kennels WHERE id = $1');
        const write = db.dialect.statement('UPDATE kennels SET name = $2 WHERE id = $1');
        // Eight same-tick read-then-write transactions on one row: on PostgreSQL some clash and run again (one may
        // still clash at its fifth attempt, and fail: it published nothing then).
        const outcomes = await Promise.allSettled(
          Array.from({ length: 8 }, (_, n) =>
            db.transaction(async () => {
              // Published first, so that an attempt undone at the clash below had published too.
              await events.publish({ name: 'tests.tallied', version: 1, aggregateId: id, payload: { n } });
              const [row] = await db.read<{ name: string }>(read, [id]);
              await db.write(write, [id, `${row.name}.`]);
            }),
          ),
        );
        const committed = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
        expect(committed).toBeGreaterThan(0);
        expect(await count("SELECT COUNT(*) AS n FROM events_outbox WHERE name = 'tests.tallied'")).toBe(committed);
        expect(await metric(/petstore_events_published_total\{event="tests\.tallied"\} (\d+)/)).toBe(committed);
        // On PostgreSQL the clash was real: some of the eight ran again, each of them publishing again.
        if (kind.name === 'postgres') expect(await retries()).toBeGreaterThan(retriedBefore);
      });

      it('parks the event its handler fails on every attempt, undoing each, and lets the ones after it through', async () => {
        const boom = await open('Boom');
        const after = await open('After Boom');
        expect([boom.status, after.status]).toEqual([201, 201]);
        await waitFor(
          async () => (await count(`SELECT COUNT(*) AS n FROM audit_seen WHERE kennel_id = '${after.body.id}'`)) === 1,
          'the event after the failing one to be handled',
        );
        const [boomEvent] = await rows(
          `SELECT id FROM events_outbox WHERE aggregate_id = '${boom.body.id}' AND name = '${KENNEL_OPENED}'`,
        );
        expect(await rows('SELECT subscriber, event_id, attempts, error FROM events_parked')).toEqual([
          {
            subscriber: 'audit.kennels-seen',
            event_id: boomEvent.id,
            attempts: 2,
            error: 'Error: the audit cannot take a kennel named Boom',
          },
        ]);
        // What each attempt wrote was undone with it.
        expect(await count(`SELECT COUNT(*) AS n FROM audit_seen WHERE kennel_id = '${boom.body.id}'`)).toBe(0);
        const metrics = (await t.http().get('/metrics')).text;
        expect(metrics).toContain('petstore_events_parked_total{subscriber="audit.kennels-seen"} 1');
        expect(metrics).toContain('petstore_events_handler_failures_total{subscriber="audit.kennels-seen"} 2');
        expect(metrics).toContain(`petstore_events_published_total{event="${KENNEL_OPENED}"} 64`); // not the one from elsewhere
        expect(metrics).toContain('petstore_events_handled_total{subscriber="audit.kennels-seen"} 64');
        expect(metrics).toContain('petstore_events_lag_seconds{subscriber="audit.kennels-seen"} 0');
        // Each handled event's delay observed once, the parked one not (it was not handled).
        expect(metrics).toContain('petstore_events_handling_delay_seconds_count{subscriber="audit.kennels-seen"} 64');
        expect(metrics).toMatch(
          /petstore_events_handling_delay_seconds_bucket\{le="300",subscriber="audit\.kennels-seen"\} 64\n/,
        );
      });

      it('lists the parked event with npm run events, and handles it once when replayed after the handler is mended', async () => {
        const events = (...args: string[]) => command(args, t.database.url);
        const [boom] = (await rows(
          'SELECT o.id, o.aggregate_id FROM events_outbox o JOIN events_parked p ON p.event_id = o.id',
        )) as Array<{ id: string; aggregate_id: string }>;
        const listed = await events('parked', '--json');
        expect(listed.status).toBe(0);
        expect(JSON.parse(listed.stdout)).toEqual([
          {
            eventId: boom.id,
            name: KENNEL_OPENED,
            version: 1,
            aggregateId: boom.aggregate_id,
            occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
            subscriber: 'audit.kennels-seen',
            attempts: 2,
            error: 'Error: the audit cannot take a kennel named Boom',
            parkedAt: expect.stringMatching(/Z$/),
            replayRequestedAt: '-',
          },
        ]);
        expect((await events('parked')).stdout).toMatch(
          /^PARKED AT +SUBSCRIBER +EVENT ID +NAME +AGGREGATE +ATTEMPTS +REPLAY ASKED +ERROR\n/,
        );

        // Replayed while the handler still fails: it stays parked, one attempt more, and can be asked again.
        expect(await events('replay', boom.id)).toEqual({
          status: 0,
          stdout: `Replay of ${boom.id} asked (1 subscriber): a running instance handles it within EVENTS_POLL_MS.\n`,
          stderr: '',
        });
        const attemptsOf = async () => Number((await rows('SELECT attempts FROM events_parked'))[0]?.attempts);
        await waitFor(async () => (await attemptsOf()) === 3, 'the failed replay to be counted');
        expect(await rows('SELECT replay_requested_at FROM events_parked')).toEqual([{ replay_requested_at: null }]);

        audit.refusesBoom = false;
        expect((await events('replay', boom.id, '--subscriber', 'audit.kennels-seen')).status).toBe(0);
        await waitFor(async () => (await count('SELECT COUNT(*) AS n FROM events_parked')) === 0, 'the replay');
        expect(await count(`SELECT COUNT(*) AS n FROM audit_seen WHERE kennel_id = '${boom.aggregate_id}'`)).toBe(1);
        expect(await events('parked')).toEqual({ status: 0, stdout: 'No parked event.\n', stderr: '' });
        expect(await events('replay', boom.id)).toEqual({
          status: 1,
          stdout: '',
          stderr: `No parked event has the id ${boom.id}.\n`,
        });
      });
      it('removes, as an instance starts, the events older than the retention that every subscriber has passed', async () => {
        const transactionId = kind.name === 'postgres' ? 'CAST(CAST(pg_current_xact_id() AS TEXT) AS bigint)' : '0';
        const longAgo = Date.now() - 3 * 3_600_000;
        await rows(`UPDATE events_outbox SET occurred_at = ${longAgo} WHERE aggregate_id = '77'`);
        await rows(
          'INSERT INTO events_outbox (id, name, version, aggregate_id, occurred_at, payload, transaction_id) VALUES ' +
            `('00000000-0000-4000-8000-000000000002', 'tests.unheard', 1, '1', ${longAgo}, '{}', ${transactionId}), ` +
            `('00000000-0000-4000-8000-000000000003', 'tests.unheard', 1, '1', ${Date.now()}, '{}', ${transactionId})`,
        );
        const before = await count('SELECT COUNT(*) AS n FROM events_outbox');
        const database = { url: t.database.url, drop: async () => undefined };
        const another = await startTestApp({
          kind: { ...kind, create: async () => database },
          features: EVENT_TEST_FEATURES,
          env: { EVENTS_RETENTION_HOURS: '1' },
        });
        try {
          // Gone: the handled event made old, and the old one no subscriber takes; the new one stays.
          await waitFor(
            async () => (await count('SELECT COUNT(*) AS n FROM events_outbox')) === before - 2,
            'the prune',
          );
          expect(
            await rows("SELECT id FROM events_outbox WHERE aggregate_id = '77' OR name = 'tests.unheard'"),
          ).toEqual([{ id: '00000000-0000-4000-8000-000000000003' }]);
        } finally {
          await another.close();
        }
      });

      it('makes a subscription row deleted by hand again where it stood, handling nothing twice', async () => {
        const seenBefore = await count('SELECT COUNT(*) AS n FROM audit_seen');
        await rows("DELETE FROM events_subscriptions WHERE subscriber = 'audit.kennels-seen'");
        const opened = await open('After the row went');
        expect(opened.status).toBe(201);
        await waitFor(
          async () => (await count(`SELECT COUNT(*) AS n FROM audit_seen WHERE kennel_id = '${opened.body.id}'`)) === 1,
          'the kennel opened after the row went to be handled',
        );
        expect(await count('SELECT COUNT(*) AS n FROM audit_seen')).toBe(seenBefore + 1);
        const [event] = await rows(
          `SELECT CAST(position AS TEXT) AS position FROM events_outbox WHERE aggregate_id = '${opened.body.id}' ` +
            `AND name = '${KENNEL_OPENED}'`,
        );
        await waitFor(
          async () =>
            (
              await rows(
                "SELECT CAST(after_position AS TEXT) AS p FROM events_subscriptions WHERE subscriber = 'audit.kennels-seen'",
              )
            )[0]?.p === event.position,
          'the progress to stand past it',
        );
      });

      it('drops a replay asked for a parked event whose outbox row is gone, rather than look for it every poll', async () => {
        await rows(
          'INSERT INTO events_parked (subscriber, event_id, position, attempts, error, parked_at, replay_requested_at) ' +
            `VALUES ('audit.kennels-seen', '00000000-0000-4000-8000-00000000dead', 999999999, 1, 'Error: x', 1, ${Date.now()})`,
        );
        await waitFor(
          async () => (await count('SELECT COUNT(*) AS n FROM events_parked WHERE position = 999999999')) === 0,
          'the orphan replay to be dropped',
        );
      });

      it('reports a subscription no module has, prunes past it once its grace is over, lists it, and forgets it', async () => {
        const transactionId = kind.name === 'postgres' ? 'CAST(CAST(pg_current_xact_id() AS TEXT) AS bigint)' : '0';
        const longAgo = Date.now() - 3 * 3_600_000;
        await rows(
          'INSERT INTO events_subscriptions (subscriber, event, after_transaction, after_position, attempts, retry_at, seen_at) ' +
            `VALUES ('gone.module-seen', 'tests.orphaned', 0, 0, 0, 0, ${longAgo}), ` +
            `('recent.module-seen', 'tests.kept', 0, 0, 0, 0, ${Date.now()})`,
        );
        await rows(
          'INSERT INTO events_outbox (id, name, version, aggregate_id, occurred_at, payload, transaction_id) VALUES ' +
            `('00000000-0000-4000-8000-000000000004', 'tests.orphaned', 1, '1', ${longAgo}, '{}', ${transactionId}), ` +
            `('00000000-0000-4000-8000-000000000005', 'tests.kept', 1, '1', ${longAgo}, '{}', ${transactionId})`,
        );
        const logged: string[] = [];
        const capture = (...args: unknown[]) => void logged.push(JSON.stringify(args));
        const database = { url: t.database.url, drop: async () => undefined };
        const another = await startTestApp({
          kind: { ...kind, create: async () => database },
          features: EVENT_TEST_FEATURES,
          env: { EVENTS_RETENTION_HOURS: '1', EVENTS_ORPHAN_GRACE_HOURS: '1' },
          logger: { log: capture, error: capture, warn: capture, debug: capture, verbose: capture },
        });
        try {
          // The orphan past its grace holds nothing back; the one seen now still does.
          await waitFor(
            async () => (await count("SELECT COUNT(*) AS n FROM events_outbox WHERE name = 'tests.orphaned'")) === 0,
            'the prune past the orphan',
          );
          expect(await rows("SELECT id FROM events_outbox WHERE name = 'tests.kept'")).toEqual([
            { id: '00000000-0000-4000-8000-000000000005' },
          ]);
          const reported = logged.filter((line) => line.includes('a subscription no module of this instance has'));
          expect(reported.map((line) => /"subscriber":"([^"]+)"/.exec(line)?.[1]).sort()).toEqual([
            'gone.module-seen',
            'recent.module-seen',
          ]);
          const metrics = (await another.http().get('/metrics')).text;
          const age = /^petstore_events_orphaned_subscription_seconds\{subscriber="gone\.module-seen"\} (\S+)$/m.exec(
            metrics,
          );
          expect(Number(age?.[1])).toBeGreaterThanOrEqual(3 * 3600 - 60);
          expect(metrics).toMatch(
            /^petstore_events_orphaned_subscription_seconds\{subscriber="recent\.module-seen"\} /m,
          );
          expect(metrics).not.toContain(
            'petstore_events_orphaned_subscription_seconds{subscriber="audit.kennels-seen"}',
          );
        } finally {
          await another.close();
        }

        const events = (...args: string[]) => command(args, t.database.url);
        const listed = await events('subscriptions', '--json');
        expect(listed.status).toBe(0);
        expect(JSON.parse(listed.stdout)).toContainEqual({
          subscriber: 'gone.module-seen',
          event: 'tests.orphaned',
          after: '0:0',
          attempts: 0,
          lastSeen: new Date(longAgo).toISOString(),
        });
        expect((await events('subscriptions')).stdout).toMatch(/^SUBSCRIBER +EVENT +AFTER +ATTEMPTS +LAST SEEN\n/);
        expect(await events('forget', 'gone.module-seen')).toEqual({
          status: 0,
          stdout: 'Forgot gone.module-seen: its progress and 0 parked events.\n',
          stderr: '',
        });
        expect(await events('forget', 'gone.module-seen')).toEqual({
          status: 1,
          stdout: '',
          stderr: 'No subscription is named gone.module-seen (npm run events -- subscriptions lists them).\n',
        });
        expect(await events('forget', 'recent.module-seen')).toEqual({
          status: 1,
          stdout: '',
          stderr: expect.stringMatching(
            /^recent\.module-seen was seen by a running instance \d+ s ago: it would make its row again where it stands\. Stop the instances that have it \(or start them without its module\) first, or give --force\.\n$/,
          ),
        });
        expect(await events('forget', 'recent.module-seen', '--force')).toEqual({
          status: 0,
          stdout: 'Forgot recent.module-seen: its progress and 0 parked events.\n',
          stderr: '',
        });
      });
    },
  );
}

for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `a subscription's progress, on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let t: TestApp;
      beforeAll(async () => {
        t = await startTestApp({ kind, features: EVENT_TEST_FEATURES, env: { EVENTS_POLL_MS: '50' } });
      });
      afterAll(() => t?.close());

      it("moves in the handler's own transaction: while the database refuses to move it, the handler's writes are undone with it", async () => {
        // A real refusal of the database: a trigger that fails every update of the audit's progress row. Were the
        // progress written after the handler's commit, each attempt would leave the handler's row behind it.
        const refuse =
          kind.name === 'postgres'
            ? [
                'CREATE FUNCTION refuse_progress() RETURNS trigger LANGUAGE plpgsql AS ' +
                  "$$ BEGIN RAISE EXCEPTION 'progress refused by the test'; END $$",
                'CREATE TRIGGER refuse_progress BEFORE UPDATE ON events_subscriptions FOR EACH ROW ' +
                  "WHEN (OLD.subscriber = 'audit.kennels-seen') EXECUTE FUNCTION refuse_progress()",
              ]
            : [
                "CREATE TRIGGER refuse_progress BEFORE UPDATE ON events_subscriptions WHEN OLD.subscriber = 'audit.kennels-seen' " +
                  "BEGIN SELECT RAISE(ABORT, 'progress refused by the test'); END",
              ];
        for (const statement of refuse) await queryDatabase(t.database.url, statement);
        const name = `Refused progress on ${kind.name}`;
        const opened = await t.http().post('/v1/kennels').set(AUTH).send({ name });
        expect(opened.status).toBe(201);
        const seen = async () =>
          Number(
            (
              await queryDatabase(
                t.database.url,
                `SELECT COUNT(*) AS n FROM audit_seen WHERE kennel_id = '${opened.body.id}'`,
              )
            )[0].n,
          );
        try {
          await waitFor(
            () => (audit.runs.get(name) ?? 0) >= 3,
            'three attempts at the event while its progress is refused',
          );
          expect(await seen()).toBe(0);
        } finally {
          await queryDatabase(
            t.database.url,
            'DROP TRIGGER refuse_progress' + (kind.name === 'postgres' ? ' ON events_subscriptions' : ''),
          );
        }
        await waitFor(async () => (await seen()) > 0, 'the event handled once its progress may move');
        await eventsSettled(t);
        expect(await seen()).toBe(1);
      });
    },
  );
}

describe.skipIf(postgres.skipReason)(
  `the outbox's horizon on postgres${postgres.skipReason ? ` (skipped: ${postgres.skipReason})` : ''}`,
  () => {
    let t: TestApp;
    const count = async (sql: string) => Number((await queryDatabase(t.database.url, sql))[0].n);
    const open = (name: string) => t.http().post('/v1/kennels').set(AUTH).send({ name });

    beforeAll(async () => {
      t = await startTestApp({
        kind: postgres,
        features: EVENT_TEST_FEATURES,
        env: { EVENTS_POLL_MS: '50' },
      });
    });
    afterAll(() => t?.close());

    it('hands events over while a transaction of another database on the same server stays open', async () => {
      // Another application's database on the shared server, with a transaction that holds its id (a report,
      // a migration): the server's horizon (pg_snapshot_xmin) stays behind it; the outbox's counts this database only.
      const elsewhere = await postgres.create();
      const holder = await openTransaction(elsewhere.url);
      try {
        const opened = await open('Beside a long transaction');
        expect(opened.status).toBe(201);
        await waitFor(
          async () => (await count(`SELECT COUNT(*) AS n FROM audit_seen WHERE kennel_id = '${opened.body.id}'`)) === 1,
          "the kennel to be heard while the other database's transaction is open",
        );
      } finally {
        await holder.end();
        await elsewhere.drop();
      }
    });

    it("hands over once an event whose transaction began before another's and committed after it, never passing it by", async () => {
      // A transaction of this database takes its id and writes its event, then waits while a kennel opened
      // through the service commits after it: a reader that moved past the later one would never read the
      // earlier one. It is held until the service has answered, and for five of the reads of this database's horizon
      // (every 100 ms while subscriptions look), none of which may let the later one pass: a wait on time, since a
      // reader that is right shows nothing meanwhile.
      const holder = await openTransaction(t.database.url);
      let later: string;
      try {
        await holder.client.query(
          'INSERT INTO events_outbox (id, name, version, aggregate_id, occurred_at, payload, transaction_id) VALUES ' +
            `('00000000-0000-4000-8000-000000000002', '${KENNEL_OPENED}', 1, '78', ${Date.now()}, ` +
            `'{"kennelId":{"$int64":"78"},"name":"Began first"}', CAST(CAST(pg_current_xact_id() AS TEXT) AS bigint))`,
        );
        const opened = await open('Committed first');
        expect(opened.status).toBe(201);
        later = String(opened.body.id);
        await new Promise((held) => setTimeout(held, 500));
        await holder.client.query('COMMIT');
      } finally {
        await holder.end();
      }
      const heard = (id: string) => count(`SELECT COUNT(*) AS n FROM audit_seen WHERE kennel_id = '${id}'`);
      await waitFor(async () => (await heard('78')) + (await heard(later)) === 2, 'both kennels to be heard');
      expect([await heard('78'), await heard(later)]).toEqual([1, 1]);
    });
  },
);

for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `domain events, traced, on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let t: TestApp;
      let receiver: OtlpReceiver;
      beforeAll(async () => {
        receiver = await OtlpReceiver.start();
        t = await startTestApp({
          kind,
          features: EVENT_TEST_FEATURES,
          env: {
            OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
            OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
            OTEL_BSP_SCHEDULE_DELAY: '20',
          },
        });
      });
      afterAll(async () => {
        await t?.close();
        await receiver?.stop();
      });

      it("handles an event in a trace of its own, linked to the publishing request's, its statements as children", async () => {
        const traceId = randomBytes(16).toString('hex');
        const opened = await t
          .http()
          .post('/v1/kennels')
          .set(AUTH)
          .set('traceparent', `00-${traceId}-${randomBytes(8).toString('hex')}-01`)
          .send({ name: 'Traced' });
        expect(opened.status).toBe(201);
        const handling = () => receiver.spans().find((span) => span.name === `process ${KENNEL_OPENED}`);
        await waitFor(() => handling() !== undefined, "the handler's span");
        const span = handling()!;
        expect(span.traceId).not.toBe(traceId);
        expect(span.parentSpanId).toBeUndefined();
        expect(span.kind).toBe(5); // CONSUMER
        const [event] = await queryDatabase(t.database.url, 'SELECT id FROM events_outbox');
        expect(span.attributes).toEqual({
          'messaging.operation.type': 'process',
          'messaging.destination.name': KENNEL_OPENED,
          'messaging.message.id': event.id,
          'petstore.events.subscriber': 'audit.kennels-seen',
        });
        // The link names a span of the request's trace: the transaction the event was written in on SQLite; on
        // PostgreSQL, where a new aggregate and its events are one statement outside a transaction, the request's.
        expect(span.links).toHaveLength(1);
        expect(span.links[0].traceId).toBe(traceId);
        const inRequest = () => receiver.spans().filter((other) => other.traceId === traceId);
        await waitFor(() => inRequest().some((other) => other.spanId === span.links[0].spanId), 'the linked span');
        expect(inRequest().find((other) => other.spanId === span.links[0].spanId)!.name).toBe(
          kind.name === 'postgres' ? 'POST /v1/kennels' : 'transaction',
        );
        const children = () => receiver.spans().filter((child) => child.parentSpanId === span.spanId);
        await waitFor(() => children().length >= 1, "the handler's statement spans");
        expect(children().map((child) => child.name)).toContain('INSERT audit_seen');
      });
    },
  );
}

/** `npm run events` in this process, on the test's database: its exit status and what it printed. */
function command(args: string[], databaseUrl: string) {
  return captured((io) =>
    inEnvironment({ DATABASE_URL: databaseUrl }, () =>
      runEventsCommand(args, io, () => openApplication(...EVENT_TEST_FEATURES)),
    ),
  );
}

describe('npm run events refusals that need no database', () => {
  it.each([
    [['replay'], 'replay takes an event id (and --subscriber)'],
    [['parked', 'extra'], 'parked takes only --json'],
    [['subscriptions', '--subscriber', 'a'], 'subscriptions takes only --json'],
    [['forget'], 'forget takes a subscriber (and --force)'],
    [['frob'], 'unknown command "frob"'],
    [[], 'a command is needed'],
  ])('%j: usage and exit status 2', async (args, message) => {
    const result = await command(args, 'sqlite:/nonexistent/never-opened.sqlite');
    expect(result).toEqual({ status: 2, stdout: '', stderr: `${message}\n\n${EVENTS_USAGE}\n` });
  });
});

for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `domain events, two instances on one database, on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let first: TestApp;
      let second: TestApp;
      beforeAll(async () => {
        audit.refusesBoom = true;
        const options = { features: EVENT_TEST_FEATURES, env: { EVENTS_POLL_MS: '50' } };
        first = await startTestApp({ kind, ...options });
        // The second on the first's database, which the first drops when it closes.
        const database = { url: first.database.url, drop: async () => undefined };
        second = await startTestApp({ kind: { ...kind, create: async () => database }, ...options });
      });
      afterAll(async () => {
        await second?.close();
        await first?.close();
      });

      it('hands each event to the subscriber once across both, whichever published it', async () => {
        const rows = (sql: string) => queryDatabase(first.database.url, sql);
        const answers = await Promise.all(
          Array.from({ length: 100 }, (_, n) =>
            (n % 2 === 0 ? first : second)
              .http()
              .post('/v1/kennels')
              .set(AUTH)
              .send({ name: `Fleet ${n}` }),
          ),
        );
        expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
        // Until no event is after the subscription's progress (in its order: transaction id, then position).
        const behind = async () =>
          Number(
            (
              await rows(
                'SELECT COUNT(*) AS n FROM events_outbox o, events_subscriptions s ' +
                  'WHERE o.name = s.event AND (o.transaction_id, o.position) > (s.after_transaction, s.after_position)',
              )
            )[0].n,
          );
        await waitFor(async () => (await behind()) === 0, 'the subscription to pass every event');
        const seen = await rows('SELECT kennel_id FROM audit_seen');
        expect(seen.map((row) => String(row.kennel_id)).sort()).toEqual(
          answers.map((answer) => answer.body.id as string).sort(),
        );
        const handled = async (t: TestApp) =>
          Number(
            /petstore_events_handled_total\{subscriber="audit\.kennels-seen"\} (\d+)/.exec(
              (await t.http().get('/metrics')).text,
            )?.[1] ?? 0,
          );
        expect((await handled(first)) + (await handled(second))).toBe(100);
      });
    },
  );
}

/** A port on 127.0.0.1 that nothing listens on (taken, then let go). */
function closedPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

describe('the relay, with its NATS server not answering', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ kind: sqlite, env: { EVENTS_RELAY_NATS_URL: `nats://127.0.0.1:${await closedPort()}` } });
  });
  afterAll(() => t?.close());

  it('takes no request and no readiness with it: creates are acknowledged, their events kept, the failures counted', async () => {
    const created = await t.http().post('/v1/pets').set(AUTH).send({ name: 'Kept for the relay', categoryId: 1 });
    expect(created.status).toBe(201);
    const ready = await t.http().get('/health/ready');
    expect(ready.status).toBe(200);
    const failures = async () =>
      Number(/petstore_events_relay_failures_total (\d+)/.exec((await t.http().get('/metrics')).text)?.[1] ?? 0);
    await waitFor(async () => (await failures()) >= 1, 'a failed look of the relay');
    const rows = (sql: string) => queryDatabase(t.database.url, sql);
    expect(await rows(`SELECT aggregate_id FROM events_outbox WHERE aggregate_id = '${created.body.id}'`)).toEqual([
      { aggregate_id: String(created.body.id) },
    ]);
    // Nothing relayed: the relay's progress has not moved.
    expect(
      await rows("SELECT event, after_position FROM events_subscriptions WHERE subscriber = 'relay.nats'"),
    ).toEqual([{ event: '*', after_position: 0 }]);
  });
});

/** A transaction on a PostgreSQL database that has taken its id, held open until `end()` (rolled back if still open). */
async function openTransaction(url: string): Promise<{ client: Client; end(): Promise<void> }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT pg_current_xact_id()');
  return {
    client,
    async end() {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
    },
  };
}
