import { Module } from '@nestjs/common';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseModule, SqlClient } from '@app/database';
import { EventsModule } from '@app/events';
import { DomainEvents } from '@app/platform/ports';
import { DATABASE_KINDS, queryDatabase, type TestDatabase } from './support/databases';
import { KENNEL_OPENED, KennelsModule, type KennelOpened } from './support/kennels';
import { AUTH, startTestApp, type TestApp } from './support/test-app';
import { waitFor } from './support/wait-for';

/*
 * Another team's subscriber, running in our process, that hangs or dawdles: the laggard records each kennel it hears
 * in its own table, and, by the kennel's name, first waits on a gate the test holds ("Gate before ...": before its
 * statement, as an outbound call would), or after its statement ("Gate after ...": inside its transaction). A gate
 * the test never opens is a handler that never settles.
 */
class CreateLaggardTable1900000000002 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE TABLE "laggard_seen" ("event_id" varchar(36) NOT NULL, "name" varchar(64) NOT NULL)');
  }
  async down(): Promise<void> {}
}

const laggard = {
  gate: Promise.withResolvers<void>(),
  /** Handler attempts that reached the gate and wait there. */
  waiting: 0,
  /** What the database answered the statements a handler sent after its gate opened. */
  late: [] as string[],
};

@Module({ imports: [DatabaseModule.forFeature({ migrations: [CreateLaggardTable1900000000002] }), EventsModule] })
class LaggardModule {
  constructor(events: DomainEvents, db: SqlClient) {
    const insert = db.dialect.statement('INSERT INTO laggard_seen (event_id, name) VALUES ($1, $2)');
    const gate = async () => {
      laggard.waiting++;
      await laggard.gate.promise;
    };
    events.subscribe<KennelOpened>({
      subscriber: 'laggard.kennels-seen',
      event: KENNEL_OPENED,
      async handle(event) {
        const { name } = event.payload;
        if (name.startsWith('Gate before')) await gate();
        await db.write(insert, [event.id, name]);
        // A value String() cannot print, thrown after the handler wrote.
        if (name.startsWith('Unprintable')) throw Object.create(null);
        if (!name.startsWith('Gate after')) return;
        await gate();
        await db.write(insert, [event.id, `${name}, again`]).then(
          () => laggard.late.push('written'),
          (error: Error) => laggard.late.push(`${error.name}: ${error.message}`),
        );
      },
    });
  }
}

const FEATURES = [KennelsModule, LaggardModule];

for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `a subscriber that hangs or dawdles, on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let database: TestDatabase;
      let t: TestApp | undefined;
      const rows = (sql: string) => queryDatabase(database.url, sql);
      const open = (name: string) => t!.http().post('/v1/kennels').set(AUTH).send({ name });
      const seen = async () => (await rows('SELECT name FROM laggard_seen ORDER BY name')).map((row) => row.name);
      const parked = () =>
        rows("SELECT p.attempts, p.error FROM events_parked p WHERE p.subscriber = 'laggard.kennels-seen'");

      /** Pets and kennels created side by side while the laggard's gate is shut: every one answered 201. */
      async function createWhileItWaits() {
        const answers = await Promise.all(
          Array.from({ length: 40 }, (_, n) =>
            n % 2 === 0
              ? t!
                  .http()
                  .post('/v1/pets')
                  .set(AUTH)
                  .send({ name: `Beside ${n}`, categoryId: 1 })
              : open(`Beside ${n}`),
          ),
        );
        expect(answers.map((answer) => [answer.status, answer.body.name])).toEqual(
          answers.map((_, n) => [201, `Beside ${n}`]),
        );
      }

      beforeAll(async () => {
        database = await kind.create();
        t = await startTestApp({
          // The database outlives the service: the last test looks at it once the service has stopped.
          kind: { ...kind, create: async () => ({ url: database.url, drop: async () => undefined }) },
          features: FEATURES,
          // A long deadline: the handler waiting before its statement is still in its first attempt as the creates go.
          env: { EVENTS_MAX_ATTEMPTS: '2', EVENTS_POLL_MS: '50', EVENTS_HANDLER_TIMEOUT_MS: '600000' },
        });
      });
      afterAll(async () => {
        await t?.close();
        await database?.drop();
      });

      it('holds no write while a handler waits before its first statement: both modules create on, and the event is handled once after', async () => {
        laggard.gate = Promise.withResolvers<void>();
        laggard.waiting = 0;
        expect((await open('Gate before one')).status).toBe(201);
        await waitFor(() => laggard.waiting === 1, 'the handler to wait at its gate');
        await createWhileItWaits();
        // Still the first attempt, still waiting: the creates did not wait for it.
        expect(laggard.waiting).toBe(1);
        expect(await seen()).toEqual([]);
        laggard.gate.resolve();
        await waitFor(async () => (await seen()).length === 21, 'the laggard to catch up');
        expect((await seen()).filter((name) => String(name).startsWith('Gate'))).toEqual(['Gate before one']);
        expect(await parked()).toEqual([]);
      });

      it('rolls back a handler that waits inside its transaction, refuses what it sends after, and parks the event', async () => {
        laggard.gate = Promise.withResolvers<void>();
        laggard.waiting = 0;
        laggard.late = [];
        expect((await open('Gate after two')).status).toBe(201);
        await waitFor(() => laggard.waiting === 2, 'both attempts to reach their gate');
        await createWhileItWaits();
        await waitFor(async () => (await parked()).length === 1, 'the event to be parked');
        expect(await parked()).toEqual([
          {
            attempts: 2,
            error:
              'TransactionAbandoned: the transaction was rolled back: it waited 50 ms on something other than ' +
              'its statements (DATABASE_TRANSACTION_IDLE_MS)',
          },
        ]);
        // What each attempt wrote before it waited was undone; the events after it are handled.
        await waitFor(
          async () => (await seen()).filter((name) => String(name).startsWith('Beside')).length === 40,
          'the rest',
        );
        expect((await seen()).filter((name) => String(name).startsWith('Gate'))).toEqual(['Gate before one']);
        laggard.gate.resolve();
        await waitFor(() => laggard.late.length === 2, 'both attempts to send their late statement');
        expect(laggard.late).toEqual([
          'TransactionAbandoned: the transaction was rolled back: it waited 50 ms on something other than its ' +
            'statements (DATABASE_TRANSACTION_IDLE_MS)',
          'TransactionAbandoned: the transaction was rolled back: it waited 50 ms on something other than its ' +
            'statements (DATABASE_TRANSACTION_IDLE_MS)',
        ]);
        expect((await seen()).filter((name) => String(name).startsWith('Gate'))).toEqual(['Gate before one']);
        const metrics = (await t!.http().get('/metrics')).text;
        expect(metrics).toContain('petstore_events_parked_total{subscriber="laggard.kennels-seen"} 1');
        expect(metrics).toContain('petstore_events_handler_failures_total{subscriber="laggard.kennels-seen"} 2');
        expect(metrics).toContain('petstore_transactions_abandoned_total{reason="idle"} 2');
      });

      it('records a throw String() cannot print: its write undone, each attempt counted, the event parked, the writes beside it served', async () => {
        const failures = async () =>
          /petstore_events_handler_failures_total\{subscriber="laggard.kennels-seen"\} (\d+)/.exec(
            (await t!.http().get('/metrics')).text,
          )?.[1] ?? '0';
        const [failedBefore, parkedBefore] = [Number(await failures()), (await parked()).length];
        expect((await open('Unprintable three')).status).toBe(201);
        await createWhileItWaits();
        await waitFor(async () => (await parked()).length === parkedBefore + 1, 'the event to be parked');
        expect((await parked()).slice(parkedBefore)).toEqual([
          { attempts: 2, error: 'a thrown value that cannot be printed ([object Object])' },
        ]);
        expect(Number(await failures())).toBe(failedBefore + 2);
        expect((await seen()).filter((name) => String(name).startsWith('Unprintable'))).toEqual([]);
      });

      it('stops at once with a handler that never settles, its attempt counted as none', async () => {
        laggard.gate = Promise.withResolvers<void>();
        laggard.waiting = 0;
        expect((await open('Gate before three')).status).toBe(201);
        await waitFor(() => laggard.waiting === 1, 'the handler to wait at its gate');
        const stopping = t!;
        t = undefined;
        // Without the stop cutting the attempt short, this waits for the gate, which never opens.
        await stopping.close();
        expect(
          await rows("SELECT attempts FROM events_subscriptions WHERE subscriber = 'laggard.kennels-seen'"),
        ).toEqual([{ attempts: 0 }]);
      });
    },
  );

  describe.skipIf(kind.skipReason)(
    `a subscriber past its deadline, on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let t: TestApp;
      const rows = (sql: string) => queryDatabase(t.database.url, sql);
      beforeAll(async () => {
        t = await startTestApp({
          kind,
          features: FEATURES,
          env: { EVENTS_MAX_ATTEMPTS: '2', EVENTS_POLL_MS: '50', EVENTS_HANDLER_TIMEOUT_MS: '300' },
        });
      });
      afterAll(() => t?.close());

      it('fails an attempt that never settles at EVENTS_HANDLER_TIMEOUT_MS like a throw, then parks it, and goes on', async () => {
        laggard.gate = Promise.withResolvers<void>();
        laggard.waiting = 0;
        const stuck = await t.http().post('/v1/kennels').set(AUTH).send({ name: 'Gate before never' });
        const after = await t.http().post('/v1/kennels').set(AUTH).send({ name: 'After the stuck one' });
        expect([stuck.status, after.status]).toEqual([201, 201]);
        await waitFor(
          async () => (await rows('SELECT name FROM laggard_seen')).length === 1,
          'the event after the stuck one to be handled',
        );
        expect(await rows('SELECT name FROM laggard_seen')).toEqual([{ name: 'After the stuck one' }]);
        expect(
          await rows("SELECT attempts, error FROM events_parked WHERE subscriber = 'laggard.kennels-seen'"),
        ).toEqual([
          {
            attempts: 2,
            error: 'HandlerTimedOut: the handler did not finish within 300 ms (EVENTS_HANDLER_TIMEOUT_MS)',
          },
        ]);
        expect(laggard.waiting).toBe(2);
      });
    },
  );
}

describe('writes waiting behind a transaction held open longer than DATABASE_TIMEOUT_MS, on sqlite', () => {
  let t: TestApp;
  const logged: string[] = [];
  const capture = (...args: unknown[]) => void logged.push(JSON.stringify(args));
  beforeAll(async () => {
    t = await startTestApp({
      features: FEATURES,
      // An operator who let transactions idle for 3 s: the write path is held that long, longer than a write may wait.
      env: { DATABASE_TIMEOUT_MS: '300', DATABASE_TRANSACTION_IDLE_MS: '3000', EVENTS_HANDLER_TIMEOUT_MS: '600000' },
      logger: { log: capture, error: capture, warn: capture, debug: capture, verbose: capture },
    });
  });
  afterAll(() => t?.close());

  it('answers each 503 database_unavailable with a log line once it has waited its time, never an empty reply, and writes again after', async () => {
    laggard.gate = Promise.withResolvers<void>();
    laggard.waiting = 0;
    laggard.late = [];
    expect((await t.http().post('/v1/kennels').set(AUTH).send({ name: 'Gate after held' })).status).toBe(201);
    await waitFor(() => laggard.waiting === 1, 'the handler to hold its transaction');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        t
          .http()
          .post('/v1/pets')
          .set(AUTH)
          .send({ name: `Waiting ${n}`, categoryId: 1 }),
      ),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toBe('2');
      expect(answer.body).toEqual({
        code: 'database_unavailable',
        message: 'the database is unavailable; retry shortly',
        status: 503,
      });
    }
    // One warning a request, naming why: the write waited its time (DATABASE_TIMEOUT_MS) and was not run.
    const warnings = logged.filter((line) => line.includes('"msg":"database unavailable"'));
    expect(warnings).toHaveLength(10);
    for (const line of warnings) expect(line).toContain('"err":{"name":"WriteWaitedTooLong"}');
    laggard.gate.resolve();
    await waitFor(() => laggard.late.length === 1, 'the handler to finish');
    expect(laggard.late).toEqual(['written']);
    const after = await t.http().post('/v1/pets').set(AUTH).send({ name: 'After', categoryId: 1 });
    expect(after.status).toBe(201);
    // None of the refused creates was run.
    const names = await queryDatabase(t.database.url, "SELECT name FROM pets WHERE name LIKE 'Waiting%'");
    expect(names).toEqual([]);
  });
});
