import { Controller, Module, Post } from '@nestjs/common';
import { Body } from '@app/validation';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { SqlClient } from '@app/database';
import {
  IDEMPOTENT_REPLAYED_HEADER,
  IdempotencyKeyInUseError,
  IdempotencyKeyReusedError,
  Idempotent,
  IdempotencyStore,
  IdempotencyModule,
} from '@app/idempotency';
import { ApiErrorResponses, Responds } from '@app/platform';
import { IsString } from 'class-validator';
import { Client } from 'pg';
import sqlite3 from 'sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from './support/databases';
import { AUTH, JSON_CONTENT_TYPE, OTHER_API_KEY, errorBody, startTestApp, type TestApp } from './support/test-app';
import { eventsSettled } from './support/events-settled';
import { waitFor } from './support/wait-for';

/** Safe retries of createPet with Idempotency-Key, on every database kind. */
const IN_USE = errorBody(
  409,
  'idempotency_key_in_use',
  'a request with this Idempotency-Key is still being processed; retry shortly',
);
const REUSED = errorBody(
  422,
  'idempotency_key_reused',
  'this Idempotency-Key was used with a different request; use a new key for a new request',
);
const BAD_KEY = errorBody(400, 'invalid_parameter', 'Idempotency-Key must be 1 to 255 visible ASCII characters');

for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `Idempotency-Key on createPet, on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let t: TestApp;
      // Long enough that a request held up by a lock below waits rather than failing 503.
      beforeAll(async () => (t = await startTestApp({ kind, env: { DATABASE_TIMEOUT_MS: '15000' } })));
      afterAll(() => t?.close());

      const create = (key: string | undefined, body: object, auth: Record<string, string> = AUTH) => {
        const request = t.http().post('/v1/pets').set(auth);
        if (key !== undefined) request.set('idempotency-key', key);
        return request.send(body);
      };
      const countNamed = async (name: string) =>
        ((await t.http().get('/v1/pets?limit=100').set(AUTH)).body as Array<{ name: string }>).filter(
          (pet) => pet.name === name,
        ).length;

      it('answers a retry with the recorded answer, byte for byte, and creates nothing more', async () => {
        const first = await create('retry-1', { name: 'Once', categoryId: 1, status: 'sold' });
        expect(first.status).toBe(201);
        expect(first.headers).toMatchObject({
          'content-type': JSON_CONTENT_TYPE,
          location: `/v1/pets/${first.body.id}`,
        });
        expect(first.headers).not.toHaveProperty('idempotent-replayed');
        expect(first.body).toEqual({ id: expect.any(Number), name: 'Once', categoryId: 1, status: 'sold' });
        for (const body of [
          { name: 'Once', categoryId: 1, status: 'sold' },
          { status: 'sold', categoryId: 1, name: 'Once' }, // the same content, keys in another order
        ]) {
          const again = await create('retry-1', body);
          expect(again.status).toBe(201);
          expect(again.headers).toMatchObject({
            'content-type': JSON_CONTENT_TYPE,
            location: first.headers.location,
            'idempotent-replayed': 'true',
          });
          expect(again.text).toBe(first.text);
        }
        expect(await countNamed('Once')).toBe(1);
      });

      it('answers the same key with another body 422 idempotency_key_reused', async () => {
        await create('reuse-1', { name: 'Original', categoryId: 1 });
        const other = await create('reuse-1', { name: 'Other', categoryId: 1 });
        expect(other.status).toBe(422);
        expect(other.headers['content-type']).toBe(JSON_CONTENT_TYPE);
        expect(other.body).toEqual(REUSED);
        expect(await countNamed('Other')).toBe(0);
      });

      it('scopes keys to the caller: two API keys may use the same key string', async () => {
        const mine = await create('shared-1', { name: 'Shared', categoryId: 1 });
        const theirs = await create(
          'shared-1',
          { name: 'Shared', categoryId: 1 },
          { authorization: `Bearer ${OTHER_API_KEY}` },
        );
        expect([mine.status, theirs.status]).toEqual([201, 201]);
        expect(theirs.headers).not.toHaveProperty('idempotent-replayed');
        expect(theirs.body.id).not.toBe(mine.body.id);
      });

      it.each([
        ['empty', ''],
        ['256 characters', 'k'.repeat(256)],
        ['with a space', 'has space'],
        ['with a non-ASCII byte', 'caf\u00e9'],
      ])('answers a key %s 400 naming the header, after the API key', async (_what, key) => {
        const response = await create(key, { name: 'Bad key', categoryId: 1 });
        expect(response.status).toBe(400);
        expect(response.body).toEqual(BAD_KEY);
        expect((await create(key, { name: 'Bad key', categoryId: 1 }, {})).status).toBe(401);
      });

      it('accepts a key of 255 visible characters', async () => {
        const response = await create('~'.repeat(255), { name: 'Long key', categoryId: 1 });
        expect(response.status).toBe(201);
      });

      it('records neither a 400 nor a 401: the corrected retry is processed', async () => {
        const invalid = await create('corrected-1', { categoryId: 1 });
        expect(invalid.status).toBe(400);
        const anonymous = await create('corrected-1', { name: 'Corrected', categoryId: 1 }, {});
        expect(anonymous.status).toBe(401);
        const corrected = await create('corrected-1', { name: 'Corrected', categoryId: 1 });
        expect(corrected.status).toBe(201);
        expect(corrected.headers).not.toHaveProperty('idempotent-replayed');
      });

      it('creates exactly one pet under concurrent retries; every answer is the same 201 or a 409', async () => {
        const answers = await Promise.all(
          Array.from({ length: 20 }, () => create('burst-1', { name: 'Burst', categoryId: 7 })),
        );
        const created = answers.filter((answer) => answer.status === 201);
        expect(created.length).toBeGreaterThanOrEqual(1);
        for (const answer of created) expect(answer.text).toBe(created[0].text);
        for (const answer of answers.filter((answer) => answer.status !== 201)) {
          expect(answer.status).toBe(409);
          expect(answer.headers['retry-after']).toBe('1');
          expect(answer.body).toEqual(IN_USE);
        }
        expect(await countNamed('Burst')).toBe(1);
      });

      /**
       * Holds the lock the pets table's writers need, from another connection, until released. First every event
       * committed so far is handled (the store's inventory hears every pet created), so that no subscriber's write
       * waits for the lock too and passes for the request's.
       */
      async function holdWriteLock(): Promise<() => Promise<void>> {
        await eventsSettled(t);
        if (t.location.type === 'sqlite') {
          const other = new sqlite3.Database(t.location.path);
          await new Promise<void>((done, fail) =>
            other.exec('BEGIN EXCLUSIVE', (error) => (error ? fail(error) : done())),
          );
          return () => new Promise<void>((done) => other.exec('ROLLBACK', () => other.close(() => done())));
        }
        const other = new Client({ connectionString: t.database.url });
        await other.connect();
        await other.query('BEGIN');
        await other.query('LOCK TABLE pets IN EXCLUSIVE MODE');
        return async () => {
          await other.query('ROLLBACK');
          await other.end();
        };
      }

      /** A write waits for a lock: SQLite's write path holds it, or PostgreSQL shows a lock not granted. */
      async function firstIsWaiting(): Promise<boolean> {
        const db = t.app.get(SqlClient);
        if (!db.isPostgres) return db.pendingWrites > 0;
        const [{ waiting }] = await db.read<{ waiting: number }>(
          'SELECT count(*)::int AS waiting FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE NOT l.granted AND d.datname = current_database()',
        );
        return waiting > 0;
      }

      it('answers 409 idempotency_key_in_use with Retry-After while the first request is still being processed', async () => {
        const release = await holdWriteLock();
        let first: Promise<{ status: number; text: string }> | undefined;
        try {
          first = create('slow-1', { name: 'Slow', categoryId: 1 }).then((response) => response);
          await waitFor(firstIsWaiting, 'the first request to wait for the lock');
          const meanwhile = await create('slow-1', { name: 'Slow', categoryId: 1 });
          expect(meanwhile.status).toBe(409);
          expect(meanwhile.headers).toMatchObject({ 'content-type': JSON_CONTENT_TYPE, 'retry-after': '1' });
          expect(meanwhile.body).toEqual(IN_USE);
        } finally {
          await release();
        }
        const done = await first;
        expect(done.status).toBe(201);
        const retry = await create('slow-1', { name: 'Slow', categoryId: 1 });
        expect(retry.status).toBe(201);
        expect(retry.text).toBe(done.text);
        expect(await countNamed('Slow')).toBe(1);
      });

      it('refuses an invalid body with a key before any transaction: 400 while another writer holds the lock', async () => {
        const release = await holdWriteLock();
        try {
          let answered = false;
          const answer = create('invalid-1', { name: 'Invalid', categoryId: 1, colour: 'red' }).then((response) => {
            answered = true;
            return response;
          });
          await waitFor(
            async () => answered || (await firstIsWaiting()),
            'the answer, or the request waiting for the lock',
          );
          // Validated inside the transaction, the request would wait here for the lock held above.
          expect(await firstIsWaiting()).toBe(false);
          const refused = await answer;
          expect(refused.status).toBe(400);
          expect(refused.headers).toMatchObject({ 'content-type': JSON_CONTENT_TYPE });
          expect(refused.body).toEqual(errorBody(400, 'invalid_body', "unknown property 'colour'"));
        } finally {
          await release();
        }
        const valid = await create('invalid-1', { name: 'Invalid', categoryId: 1 });
        expect(valid.status).toBe(201);
        expect(valid.headers).not.toHaveProperty('idempotent-replayed');
      });

      it('forgets a key after IDEMPOTENCY_TTL_HOURS: expired records are ignored, then purged', async () => {
        const first = await create('expiring-1', { name: 'Expiring', categoryId: 1 });
        const db = t.app.get(SqlClient);
        const dayAndABit = 25 * 3_600_000;
        await db.write(db.dialect.statement('UPDATE idempotency_keys SET created_at = $1 WHERE idempotency_key = $2'), [
          Date.now() - dayAndABit,
          'expiring-1',
        ]);
        await t.app.get(IdempotencyStore).purgeExpired();
        const left = await db.read(
          db.dialect.statement('SELECT idempotency_key FROM idempotency_keys WHERE idempotency_key = $1'),
          ['expiring-1'],
        );
        expect(left).toEqual([]);
        const later = await create('expiring-1', { name: 'Expiring', categoryId: 1 });
        expect(later.status).toBe(201);
        expect(later.headers).not.toHaveProperty('idempotent-replayed');
        expect(later.body.id).not.toBe(first.body.id);
      });

      it('serves keyed and plain creates side by side: every one is created (201), none waits for a lock', async () => {
        const writer = (keyed: boolean, n: number) => async () => {
          const statuses: number[] = [];
          for (let i = 0; i < 25; i++) {
            const name = `Mix ${keyed ? 'keyed' : 'plain'} ${n}-${i}`;
            const response = await create(keyed ? `mix-${n}-${i}` : undefined, { name, categoryId: 5 });
            statuses.push(response.status);
          }
          return statuses;
        };
        const writers = [0, 1, 2, 3].flatMap((n) => [writer(true, n), writer(false, n)]);
        const statuses = (await Promise.all(writers.map((run) => run()))).flat();
        expect(statuses).toEqual(Array(200).fill(201));
        const listed = await t.http().get('/v1/pets?limit=20').set(AUTH);
        expect(listed.status).toBe(200);
      });

      it('answers requests without the header exactly as before', async () => {
        const plain = await create(undefined, { name: 'Plain', categoryId: 1 });
        expect(plain.status).toBe(201);
        expect(plain.headers).not.toHaveProperty('idempotent-replayed');
        const again = await create(undefined, { name: 'Plain', categoryId: 1 });
        expect(again.body.id).toBe(plain.body.id + 1);
      });
    },
  );
}

/*
 * A route of this test only whose handler returns more than its response
 * schema declares: the serializer @Responds sets up drops the rest, and the
 * answer recorded for a key must be the same bytes, not the handler's object.
 */
class Ticket {
  @ApiProperty({ type: 'integer' }) number: number;
}
class NewTicket {
  @ApiProperty() @IsString() queue: string;
}

@ApiTags('tickets')
@Controller('tickets')
class TicketsController {
  private issued = 0;

  @Post()
  @Idempotent()
  @Responds(201, Ticket, { description: 'issued', headers: IDEMPOTENT_REPLAYED_HEADER })
  @ApiErrorResponses(400, new IdempotencyKeyInUseError(), new IdempotencyKeyReusedError())
  issue(@Body() _body: NewTicket): Ticket {
    return Object.assign(new Ticket(), { number: ++this.issued, internalNote: 'never sent' });
  }
}

@Module({ imports: [IdempotencyModule], controllers: [TicketsController] })
class TicketsModule {}

describe('Idempotency-Key: one serialization path', () => {
  let t: TestApp;
  beforeAll(
    async () =>
      (t = await startTestApp({
        features: [TicketsModule],
      })),
  );
  afterAll(() => t?.close());

  it('records and replays the bytes the route serializes without a key, never the handler object', async () => {
    const issue = (key?: string) => {
      const request = t.http().post('/v1/tickets').set(AUTH);
      if (key) request.set('idempotency-key', key);
      return request.send({ queue: 'front' });
    };
    const plain = await issue();
    const keyed = await issue('ticket-1');
    const replayed = await issue('ticket-1');
    expect([plain.status, plain.text]).toEqual([201, '{"number":1}']);
    expect([keyed.status, keyed.text, keyed.headers['content-type']]).toEqual([201, '{"number":2}', JSON_CONTENT_TYPE]);
    expect([replayed.status, replayed.text, replayed.headers['idempotent-replayed']]).toEqual([
      201,
      '{"number":2}',
      'true',
    ]);
  });
});
