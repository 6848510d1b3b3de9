import { Controller, HttpCode, Module, Post } from '@nestjs/common';
import { Body } from '@app/validation';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { PetCatalog } from '@app/pets';
import { DatabaseSettings, SqlClient, TransactionAbandoned, isDatabaseUnavailable, openDatabase } from '@app/database';
import { IdempotencyModule, Idempotent } from '@app/idempotency';
import { Responds } from '@app/platform';
import { AggregateRoot } from '@app/platform/domain';
import { UnitOfWork } from '@app/platform/ports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceTables } from './support/service-modules';
import { DATABASE_KINDS, type TestDatabase } from './support/databases';
import { AUTH, startTestApp, type TestApp } from './support/test-app';

/**
 * The promise SqlClient.transaction() makes a module author, on every database
 * kind (docs/extending.md, "Transactions"): transactions are serializable, each
 * is all or nothing, and its work is not run again behind its author's back.
 * The transactions below start in the same tick, as the requests of one busy
 * moment do, so that on SQLite they share one group-commit batch.
 */
for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `SqlClient.transaction(), on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let database: TestDatabase;
      let db: { sql: SqlClient; close(): Promise<void> };
      beforeAll(async () => {
        database = await kind.create();
        db = await openDatabase(
          DatabaseSettings.fromEnvironment({ DATABASE_URL: database.url }),
          await serviceTables(),
        );
      });
      afterAll(async () => {
        await db?.close();
        await database?.drop();
      });

      const statement = (text: string) => db.sql.dialect.statement(text);
      const addPet = async (name: string, status: string) => {
        await db.sql.write(statement('INSERT INTO pets (name, category_id, status) VALUES ($1, 1, $2)'), [
          name,
          status,
        ]);
        const [row] = await db.sql.read<{ id: number | string }>(statement('SELECT id FROM pets WHERE name = $1'), [
          name,
        ]);
        return Number(row.id);
      };
      const statusOf = async (id: number) =>
        (await db.sql.read<{ status: string }>(statement('SELECT status FROM pets WHERE id = $1'), [id]))[0].status;
      const namesLike = async (pattern: string) =>
        (
          await db.sql.read<{ name: string }>(statement('SELECT name FROM pets WHERE name LIKE $1 ORDER BY name'), [
            pattern,
          ])
        ).map((row) => row.name);

      it('lets exactly one of eight same-tick read-then-write transactions on one row win', async () => {
        const id = await addPet('Contested', 'available');
        // Reads the row, then writes unconditionally depending on what it read: only isolation keeps two from both
        // seeing `available`.
        const reserve = () =>
          db.sql.transaction(async () => {
            if ((await statusOf(id)) !== 'available') return 'taken';
            await db.sql.write(statement(`UPDATE pets SET status = 'pending' WHERE id = $1`), [id]);
            return 'reserved';
          });
        // Plain creates in the same tick, so in the same SQLite batches, sent side by side with the transactions there.
        const plain = (n: number) =>
          db.sql.write(statement('INSERT INTO pets (name, category_id) VALUES ($1, 1)'), [`beside-${n}`]);
        const [outcomes, created] = await Promise.all([
          Promise.all(Array.from({ length: 8 }, reserve)),
          Promise.all(Array.from({ length: 16 }, (_, n) => plain(n))),
        ]);
        expect([...outcomes].sort()).toEqual(['reserved', ...Array<string>(7).fill('taken')]);
        expect(await statusOf(id)).toBe('pending');
        expect(created.map((result) => result.changed)).toEqual(Array(16).fill(1));
        expect(await namesLike('beside-%')).toHaveLength(16);
      });

      it('tells the one of eight same-tick conditional writes that won by the rows it changed', async () => {
        const id = await addPet('Compared', 'available');
        const reserve = () =>
          db.sql.write(statement(`UPDATE pets SET status = 'pending' WHERE id = $1 AND status = 'available'`), [id]);
        const changed = (await Promise.all(Array.from({ length: 8 }, reserve))).map((result) => result.changed);
        expect([...changed].sort()).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
        expect(await statusOf(id)).toBe('pending');
      });

      it('keeps a transaction that fails from undoing or re-running the others begun with it', async () => {
        const runs = new Map<string, number>();
        const transaction = (name: string, then?: () => Promise<unknown>) =>
          db.sql.transaction(async () => {
            runs.set(name, (runs.get(name) ?? 0) + 1);
            await db.sql.write(statement('INSERT INTO pets (name, category_id) VALUES ($1, 1)'), [name]);
            return then ? then() : name;
          });
        const outcomes = await Promise.allSettled([
          transaction('batch-a'),
          transaction('batch-b', () => Promise.reject(new Error('refused after its write'))),
          db.sql.write(statement('INSERT INTO pets (name, category_id) VALUES ($1, 1)'), ['batch-c']),
          // Begun after the failed one: must not see its row, which was never committed.
          transaction('batch-d', () => namesLike('batch-b')),
        ]);
        expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
        expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('refused after its write'));
        expect((outcomes[3] as PromiseFulfilledResult<unknown>).value).toEqual([]);
        expect(Object.fromEntries(runs)).toEqual({ 'batch-a': 1, 'batch-b': 1, 'batch-d': 1 });
        expect(await namesLike('batch-%')).toEqual(['batch-a', 'batch-c', 'batch-d']);
      });

      it('joins a transaction begun further up the call chain: one commit, or nothing of either write', async () => {
        const outer = (name: string, fail: boolean) =>
          db.sql.transaction(async () => {
            await db.sql.write(statement('INSERT INTO pets (name, category_id) VALUES ($1, 1)'), [`${name}-outer`]);
            // Another module's repository opening "its own" transaction joins this one.
            await db.sql.transaction(() =>
              db.sql.write(statement('INSERT INTO pets (name, category_id) VALUES ($1, 1)'), [`${name}-inner`]),
            );
            if (fail) throw new Error('refused');
          });
        await outer('joined-kept', false);
        await expect(outer('joined-undone', true)).rejects.toThrow('refused');
        expect(await namesLike('joined-%')).toEqual(['joined-kept-inner', 'joined-kept-outer']);
      });

      it("joins TypeORM's own transactions too: a repository's save() inside it is undone with it", async () => {
        const probes = () => db.sql.repository<{ id: number; probedAt: string }>('WriteProbeRecord');
        const failing = db.sql.transaction(async () => {
          await probes().save({ id: 424_242, probedAt: 'saved in the transaction' });
          throw new Error('refused after the save');
        });
        await expect(failing).rejects.toThrow('refused after the save');
        expect(await probes().findOneBy({ id: 424_242 })).toBeNull();
        await db.sql.transaction(() => probes().save({ id: 424_243, probedAt: 'kept' }));
        expect(await probes().findOneBy({ id: 424_243 })).toEqual({ id: 424_243, probedAt: 'kept' });
      });

      it('answers each of forty same-tick single writes with its own outcome: one refused, the others kept', async () => {
        const insert = (name: string, status: string) =>
          db.sql.write(
            statement(
              'INSERT INTO pets (name, category_id, status) VALUES ($1, 1, $2) RETURNING CAST(id AS TEXT) AS id',
            ),
            [name, status],
          );
        const names = Array.from({ length: 40 }, (_, n) => `side-${String(n).padStart(2, '0')}`);
        // The pets table's check refuses the twentieth; on SQLite they share one batch and run side by side.
        const outcomes = await Promise.allSettled(names.map((name, n) => insert(name, n === 19 ? 'lost' : 'sold')));
        expect(outcomes.map((outcome) => outcome.status)).toEqual(
          names.map((_, n) => (n === 19 ? 'rejected' : 'fulfilled')),
        );
        const ids = outcomes.flatMap((outcome) =>
          outcome.status === 'fulfilled' ? outcome.value.rows.map((row) => String(row.id)) : [],
        );
        expect(new Set(ids).size).toBe(39);
        const kept = await db.sql.read<{ id: number | string; name: string }>(
          statement(`SELECT CAST(id AS TEXT) AS id, name FROM pets WHERE name LIKE 'side-%' ORDER BY name`),
        );
        expect(kept.map((row) => row.name)).toEqual(names.filter((_, n) => n !== 19));
        expect(new Set(kept.map((row) => String(row.id)))).toEqual(new Set(ids));
      });

      it('answers every same-tick write of a statement that does not prepare with its error, and hangs none', async () => {
        const broken = () => db.sql.write(statement('INSERT INTO no_such_table (name) VALUES ($1)'), ['x']);
        const outcomes = await Promise.allSettled(Array.from({ length: 10 }, broken));
        for (const outcome of outcomes) {
          expect(outcome.status).toBe('rejected');
          expect(String((outcome as PromiseRejectedResult).reason)).toMatch(/no_such_table/);
        }
      });

      it('keeps a hundred same-tick writes of a hundred different statements', async () => {
        // More SQL texts than the writing connection keeps prepared on SQLite: some are finalized while in use.
        const names = Array.from({ length: 100 }, (_, n) => `texts-${String(n).padStart(3, '0')}`);
        await Promise.all(
          names.map((name, n) =>
            db.sql.write(statement(`INSERT INTO pets (name, category_id) VALUES ($1, ${n})`), [name]),
          ),
        );
        expect(await namesLike('texts-%')).toEqual(names);
      });

      it('ends transactions that send no statement, resolved or thrown, and leaves no connection inside one', async () => {
        // More than the pool's ten connections, so that one left inside its transaction would be met again.
        const resolved = await Promise.all(Array.from({ length: 25 }, (_, n) => db.sql.transaction(async () => n)));
        expect(resolved).toEqual(Array.from({ length: 25 }, (_, n) => n));
        const thrown = await Promise.allSettled(
          Array.from({ length: 25 }, () =>
            db.sql.transaction(async () => {
              throw new Error('refused before any statement');
            }),
          ),
        );
        expect(thrown.map((outcome) => (outcome as PromiseRejectedResult).reason?.message)).toEqual(
          Array.from({ length: 25 }, () => 'refused before any statement'),
        );
        const names = Array.from({ length: 25 }, (_, n) => `after-empty-${String(n).padStart(2, '0')}`);
        await Promise.all(
          names.map((name) =>
            db.sql.transaction(() =>
              db.sql.write(statement('INSERT INTO pets (name, category_id) VALUES ($1, 1)'), [name]),
            ),
          ),
        );
        expect(await namesLike('after-empty-%')).toEqual(names);
        if (kind.name === 'postgres') {
          const [{ open }] = await db.sql.read<{ open: string }>(
            "SELECT CAST(COUNT(*) AS TEXT) AS open FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'",
          );
          expect(open).toBe('0');
        }
      });

      // PostgreSQL alone may refuse to commit a transaction that it cannot serialize with those beside it.
      if (kind.name === 'postgres') {
        it('runs work refused as not serializable again, pausing longer each time, until DATABASE_TIMEOUT_MS has passed, then gives up with the error', async () => {
          const budgeted = await openDatabase(
            DatabaseSettings.fromEnvironment({ DATABASE_URL: database.url, DATABASE_TIMEOUT_MS: '1000' }),
            await serviceTables(),
          );
          try {
            let runs = 0;
            const started = performance.now();
            const refused = budgeted.sql.transaction(async () => {
              runs++;
              await budgeted.sql.write(statement('INSERT INTO pets (name, category_id) VALUES ($1, 1)'), [
                'never-serialized',
              ]);
              // What PostgreSQL raises then.
              await budgeted.sql.read(`DO $$ BEGIN RAISE EXCEPTION 'clash' USING ERRCODE = '40001'; END $$`);
            });
            await expect(refused).rejects.toMatchObject({ driverError: { code: '40001' } });
            // Pauses of at most 4, 8, ..., 250 ms: it gives up only once a pause would end past the budget, so not
            // before 750 ms, and by then it ran more than the first six pauses (252 ms at most) allow.
            expect(performance.now() - started).toBeGreaterThanOrEqual(750);
            expect(runs).toBeGreaterThan(6);
            expect(await namesLike('never-serialized')).toEqual([]);
          } finally {
            await budgeted.close();
          }
        });
      }
    },
  );
}

/**
 * Writing across modules as an application service does it (docs/extending.md,
 * "Writing across modules"): the platform's UnitOfWork port, and another
 * module's facade whose write is a compare-and-set. A race to copy into a
 * module's own suite.
 */
for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `a UnitOfWork over another module's facade, on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let t: TestApp;
      let unitOfWork: UnitOfWork;
      let catalog: PetCatalog;
      beforeAll(async () => {
        t = await startTestApp({ kind });
        unitOfWork = t.app.get(UnitOfWork);
        catalog = t.app.get(PetCatalog);
      });
      afterAll(() => t?.close());

      const addPet = async (name: string) => {
        const created = await t.http().post('/v1/pets').set(AUTH).send({ name, categoryId: 1, status: 'available' });
        expect(created.status).toBe(201);
        return { id: BigInt(created.body.id), path: created.headers.location as string };
      };
      const statusAt = async (path: string) => (await t.http().get(path).set(AUTH)).body.status;

      it('lets exactly one of eight same-tick reservations of one pet win', async () => {
        const pet = await addPet('Reserved once');
        const place = () => unitOfWork.run(() => catalog.reserve(pet.id));
        const won = await Promise.all(Array.from({ length: 8 }, place));
        expect([...won].sort()).toEqual([false, false, false, false, false, false, false, true]);
        expect(await statusAt(pet.path)).toBe('pending');
      });

      /** An aggregate of the test's own: a pet row, recording `tests.tagged` with the id the database gives it. */
      class Tag extends AggregateRoot {
        constructor(readonly name: string | null) {
          super();
          this.record(() => ({
            name: 'tests.tagged',
            version: 1,
            aggregateId: String(this.id),
            payload: { id: this.id },
          }));
        }
      }
      const save = (tag: Tag) => {
        const db = t.app.get(SqlClient);
        db.persist(tag, () => ({
          sql: db.dialect.insertReturningId('INSERT INTO pets (name, category_id) VALUES ($1, 1)'),
          parameters: [tag.name],
          inserted: (id) => tag.stored(id, 1),
        }));
      };
      const tagged = async () => {
        const db = t.app.get(SqlClient);
        const rows = await db.read<{ aggregateId: string; payload: string }>(
          'SELECT aggregate_id AS "aggregateId", payload FROM events_outbox WHERE name = \'tests.tagged\'',
        );
        return new Map(rows.map((row) => [row.aggregateId, row.payload]));
      };
      const namesLike = async (pattern: string) => {
        const db = t.app.get(SqlClient);
        const rows = await db.read<{ id: string; name: string }>(
          db.dialect.statement('SELECT CAST(id AS TEXT) AS id, name FROM pets WHERE name LIKE $1 ORDER BY name'),
          [pattern],
        );
        return new Map(rows.map((row) => [row.name, row.id]));
      };

      it('commits each of forty same-tick units with its event, or neither; the one refused, neither', async () => {
        const names = Array.from({ length: 40 }, (_, n) => `unit-${String(n).padStart(2, '0')}`);
        // The twelfth breaks a NOT NULL column: on SQLite they share one batch, where it alone is undone.
        const outcomes = await Promise.allSettled(
          names.map((name, n) =>
            unitOfWork.run(async () => {
              const tag = new Tag(n === 11 ? null : name);
              save(tag);
              return tag;
            }),
          ),
        );
        const kept = await namesLike('unit-%');
        const events = await tagged();
        expect(outcomes.map((outcome) => outcome.status)).toEqual(
          names.map((_, n) => (n === 11 ? 'rejected' : 'fulfilled')),
        );
        expect(String((outcomes[11] as PromiseRejectedResult).reason)).toMatch(/NOT NULL|not-null/i);
        expect([...kept.keys()]).toEqual(names.filter((_, n) => n !== 11));
        for (const [n, outcome] of outcomes.entries()) {
          if (outcome.status !== 'fulfilled') continue;
          const id = kept.get(names[n])!;
          // The tag was told its id, and its event carries it (in aggregate_id and in the payload, as an int64).
          expect(String(outcome.value.id)).toBe(id);
          expect(events.get(id)).toBe(`{"id":{"$int64":"${id}"}}`);
        }
      });

      it('writes nothing of a unit whose work throws after its save, and answers its error', async () => {
        const failing = unitOfWork.run(async () => {
          save(new Tag('thrown-after'));
          throw new Error('the work failed after its save');
        });
        await expect(failing).rejects.toThrow('the work failed after its save');
        expect(await namesLike('thrown-after')).toEqual(new Map());
      });

      it('holds no transaction while its work awaits something else, and refuses a write() that skips save()', async () => {
        const db = t.app.get(SqlClient);
        // Longer than DATABASE_TRANSACTION_IDLE_MS: a transaction waiting so long would be rolled back.
        const slow = unitOfWork.run(async () => {
          await new Promise((resolve) => setTimeout(resolve, 200));
          const tag = new Tag('after-a-wait');
          save(tag);
          return tag;
        });
        await expect(slow).resolves.toBeInstanceOf(Tag);
        expect([...(await namesLike('after-a-wait')).keys()]).toEqual(['after-a-wait']);
        await expect(
          unitOfWork.run(() => db.write(db.dialect.statement('DELETE FROM pets WHERE id = $1'), ['1'])),
        ).rejects.toThrow(
          "write() inside UnitOfWork.run(): a unit of work writes what its repositories' save() persisted, when it commits",
        );
        expect(() => save(new Tag('outside'))).toThrow(
          "save() outside UnitOfWork.run(): call a repository's save() inside a unit of work",
        );
      });

      it("undoes another module's write when the unit of work fails after it, and keeps it when it succeeds", async () => {
        const pet = await addPet('Reserved, then not');
        const failing = unitOfWork.run(async () => {
          expect(await catalog.reserve(pet.id)).toBe(true);
          // The consumer's own write fails (its order refused): the reservation goes with it.
          throw new Error('the order could not be placed');
        });
        await expect(failing).rejects.toThrow('the order could not be placed');
        expect(await statusAt(pet.path)).toBe('available');
        // A unit of work inside another joins it: both reservations' fates are the outer one's.
        const outcome = await unitOfWork.run(async () => [
          await catalog.reserve(pet.id),
          await unitOfWork.run(() => catalog.release(pet.id)),
          await catalog.reserve(pet.id),
        ]);
        expect(outcome).toEqual([true, true, true]);
        expect(await statusAt(pet.path)).toBe('pending');
      });
    },
  );
}

/** How often the keyed route's handler below was entered. */
let handlerRuns = 0;

@ApiSchema({ name: 'NoBody' })
class NoBody {}

@ApiSchema({ name: 'Tally' })
class TallyResponse {
  @ApiProperty({ type: 'integer' })
  count: number;
}

/**
 * A keyed create whose handler reads a row and writes depending on it, in a transaction: same-tick requests clash,
 * and PostgreSQL runs some of them again.
 */
@Controller('tallies')
class TalliesController {
  constructor(private readonly db: SqlClient) {}

  @Post()
  @HttpCode(201)
  @Idempotent()
  @Responds(201, TallyResponse, { description: 'The tally after this request.' })
  async add(@Body() _body: NoBody): Promise<TallyResponse> {
    handlerRuns++;
    return this.db.transaction(async () => {
      const statement = (text: string) => this.db.dialect.statement(text);
      const [row] = await this.db.read<{ name: string }>(statement('SELECT name FROM pets WHERE id = $1'), ['1']);
      const count = Number(row.name) + 1;
      await this.db.write(statement('UPDATE pets SET name = $2 WHERE id = $1'), ['1', String(count)]);
      return { count };
    });
  }
}

@Module({ imports: [IdempotencyModule], controllers: [TalliesController] })
class TalliesModule {}

for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `a keyed route's handler, run again with its transaction, on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let t: TestApp;
      beforeAll(async () => {
        t = await startTestApp({
          kind,
          features: [TalliesModule],
        });
        await t.http().post('/v1/pets').set(AUTH).send({ name: '0', categoryId: 1 });
      });
      afterAll(() => t?.close());

      it('is entered once per request, and once more for each retry /metrics counts (PostgreSQL only)', async () => {
        handlerRuns = 0;
        const answers = await Promise.all(
          Array.from({ length: 24 }, (_, n) =>
            t.http().post('/v1/tallies').set(AUTH).set('idempotency-key', `tally-${n}`).send({}),
          ),
        );
        // Serialized: each tally counts one more than the one before it; on PostgreSQL a request whose transaction
        // could not be serialized in five attempts is answered 503 and counts nothing.
        const counted = answers.filter((answer) => answer.status === 201);
        expect(answers.filter((answer) => answer.status !== 201).map((answer) => answer.body.code)).toEqual(
          Array(24 - counted.length).fill('database_unavailable'),
        );
        expect(counted.map((answer) => answer.body.count).sort((a, b) => a - b)).toEqual(
          Array.from({ length: counted.length }, (_, n) => n + 1),
        );
        const metrics = (await t.http().get('/metrics')).text;
        const retries = Number(/^petstore_transaction_retries_total (\d+)$/m.exec(metrics)?.[1]);
        expect(handlerRuns).toBe(24 + retries);
        if (kind.name === 'sqlite') expect(retries).toBe(0);
      });
    },
  );
}

/**
 * The fence (decision 0032): a transaction whose work waits on anything but its own statements for
 * DATABASE_TRANSACTION_IDLE_MS is rolled back, whatever its work does after; a statement that itself takes long,
 * sent through SqlClient or through a TypeORM repository of the transaction, is no idleness.
 */
for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `a transaction waiting on something else, on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let database: TestDatabase;
      let db: { sql: SqlClient; close(): Promise<void> };
      beforeAll(async () => {
        database = await kind.create();
        const env = { DATABASE_URL: database.url, DATABASE_TRANSACTION_IDLE_MS: '30' };
        db = await openDatabase(DatabaseSettings.fromEnvironment(env), await serviceTables());
      });
      afterAll(async () => {
        await db?.close();
        await database?.drop();
      });
      const insert = () => db.sql.dialect.statement('INSERT INTO pets (name, category_id) VALUES ($1, 1)');
      const named = async (name: string) =>
        (await db.sql.read(db.sql.dialect.statement('SELECT name FROM pets WHERE name = $1'), [name])).length;
      /** A statement that runs for well over the limit by itself. */
      const slow =
        kind.name === 'postgres'
          ? 'SELECT pg_sleep(0.2)'
          : 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT COUNT(*) FROM c';

      it('rolls back a transaction that waits on a timer, refuses what its work sends after, and keeps nothing', async () => {
        let late: unknown;
        const done = Promise.withResolvers<void>();
        await expect(
          db.sql.transaction(async () => {
            await db.sql.write(insert(), ['fenced']);
            await new Promise((resolve) => setTimeout(resolve, 200));
            await db.sql.write(insert(), ['fenced, late']).catch((error: unknown) => (late = error));
            done.resolve();
          }),
        ).rejects.toThrow(
          'the transaction was rolled back: it waited 30 ms on something other than its statements (DATABASE_TRANSACTION_IDLE_MS)',
        );
        await done.promise;
        expect(late).toBeInstanceOf(TransactionAbandoned);
        expect(isDatabaseUnavailable(late)).toBe(true);
        expect([await named('fenced'), await named('fenced, late')]).toEqual([0, 0]);
        // The write path goes on.
        await db.sql.transaction(() => db.sql.write(insert(), ['after the fence']));
        expect(await named('after the fence')).toBe(1);
      });

      it('runs nothing of the code in a transaction on demand abandoned before its batch began, and leaves nothing', async () => {
        // On SQLite a transaction holds the write path ahead of it (until the fence ends it); on PostgreSQL the on-demand
        // one is still connecting as it is given up.
        const holder = db.sql
          .transaction(async () => {
            await db.sql.write(insert(), ['holder']);
            await new Promise((resolve) => setTimeout(resolve, 200));
          })
          .catch((error: unknown) => error);
        const demanded = db.sql.onDemand(async () => undefined);
        const written = demanded
          .within(() => db.sql.write(insert(), ['on demand']))
          .then(
            () => 'written',
            (error: Error) => error.message,
          );
        await demanded.abandon('given up before its batch began');
        expect(await written).toBe('the transaction was rolled back: given up before its batch began');
        expect(await holder).toBeInstanceOf(TransactionAbandoned);
        expect([await named('on demand'), await named('holder')]).toEqual([0, 0]);
      });

      it('counts a long statement as work, sent through SqlClient or a repository of the transaction', async () => {
        await db.sql.transaction(async () => {
          await db.sql.read(slow);
          await db.sql.repository('WriteProbeRecord').query(slow);
          await db.sql.write(insert(), ['after slow statements']);
        });
        expect(await named('after slow statements')).toBe(1);
      });
    },
  );
}
