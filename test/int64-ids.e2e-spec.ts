import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, continueIdsAt as continueIdsOf } from './support/databases';
import { AUTH, JSON_CONTENT_TYPE, startTestApp, type TestApp } from './support/test-app';

/**
 * Pet ids are int64 by contract, and exact over the whole range: written with
 * their exact digits, and read exactly from a path, a cursor and the database,
 * never through a double. The id sequence is moved past 2^53, and then to the
 * top of int64, as years of inserts or an operator's setval would.
 */
for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `ids past 2^53, on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let t: TestApp;
      beforeAll(async () => (t = await startTestApp({ kind })));
      afterAll(() => t?.close());

      /** The next pet created gets `next`. */
      const continueIdsAt = (next: bigint) => continueIdsOf(t.database.url, 'pets', next);

      const create = (name: string, status?: string) =>
        t
          .http()
          .post('/v1/pets')
          .set(AUTH)
          .send({ name, categoryId: 1, ...(status ? { status } : {}) });
      const get = (path: string) => t.http().get(path).set(AUTH);

      it('creates, gets, lists and pages pets past 2^53 with their exact ids', async () => {
        await continueIdsAt(2n ** 53n);
        const texts = [];
        for (const name of ['A', 'B', 'C']) {
          const created = await create(name, 'sold');
          expect(created.status).toBe(201);
          texts.push(created.text);
        }
        expect(texts).toEqual([
          '{"id":9007199254740992,"name":"A","categoryId":1,"status":"sold"}',
          '{"id":9007199254740993,"name":"B","categoryId":1,"status":"sold"}',
          '{"id":9007199254740994,"name":"C","categoryId":1,"status":"sold"}',
        ]);
        const b = await get('/v1/pets/9007199254740993');
        expect([b.status, b.headers['content-type'], b.text]).toEqual([200, JSON_CONTENT_TYPE, texts[1]]);

        for (const filter of ['', '&status=sold']) {
          const first = await get(`/v1/pets?limit=1&after=9007199254740992${filter}`);
          expect([first.status, first.text]).toEqual([200, `[${texts[1]}]`]);
          expect(first.headers.link).toBe(`</v1/pets?limit=1${filter}&after=9007199254740993>; rel="next"`);
          const next = await get(/<([^>]+)>/.exec(first.headers.link)![1]);
          expect([next.status, next.text, next.headers.link]).toEqual([200, `[${texts[2]}]`, undefined]);
        }
      });

      it('reaches the last id of int64, 9223372036854775807, exactly', async () => {
        await continueIdsAt(2n ** 63n - 2n);
        const before = await create('Penultimate');
        const last = await create('Last');
        expect([before.status, before.text]).toEqual([
          201,
          '{"id":9223372036854775806,"name":"Penultimate","categoryId":1}',
        ]);
        expect([last.status, last.headers.location, last.text]).toEqual([
          201,
          '/v1/pets/9223372036854775807',
          '{"id":9223372036854775807,"name":"Last","categoryId":1}',
        ]);
        expect((await get('/v1/pets/9223372036854775807')).text).toBe(last.text);
        const page = await get('/v1/pets?after=9223372036854775806');
        expect([page.text, page.headers.link]).toEqual([`[${last.text}]`, undefined]);
        expect((await get('/v1/pets?after=9223372036854775807')).text).toBe('[]');

        // No id is left: the table is full, as a full disk would leave it (503), and nothing is left behind.
        const beyond = await create('Beyond');
        expect([beyond.status, beyond.headers['retry-after'], beyond.body]).toEqual([
          503,
          expect.stringMatching(/^\d+$/),
          { code: 'database_unavailable', message: 'the database is unavailable; retry shortly', status: 503 },
        ]);
        expect((await get('/v1/pets?after=9223372036854775806')).text).toBe(`[${last.text}]`);
      });
    },
  );
}
