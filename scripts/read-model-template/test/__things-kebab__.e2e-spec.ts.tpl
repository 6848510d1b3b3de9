import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '@test/support/databases';
import { eventsSettled } from '@test/support/events-settled';
import { publishEvent } from '@test/support/publish-event';
import { AUTH, JSON_CONTENT_TYPE, errorBody, startTestApp, type TestApp } from '@test/support/test-app';

/**
 * The __things-kebab__ read model through the real application, on every database kind: the events it subscribes to,
 * committed as their publishers' changes commit them, then what it serves.
 */
for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    `__things-kebab__ read model on ${kind.name}${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let t: TestApp;
      beforeAll(async () => (t = await startTestApp({ kind })));
      afterAll(() => t?.close());

      const get = (path: string) => t.http().get(path).set(AUTH);
      /**
       * `name` published `times` times, each committed in a unit of work of the application as its publisher's change
       * would be, with a payload of the test's own: the handlers as generated read none (give it the event's fields
       * when a handler counts by them).
       */
      const publish = async (name: string, times: number) => {
        for (let n = 1; n <= times; n++) {
          await publishEvent(t, { name, version: 1, aggregateId: String(n), payload: {} });
        }
      };

      it('counts each event once, after its commit, and serves the counts in the order first heard, a page at a time', async () => {
        // A different number of each, so that an event counted under another's key, or twice, shows.
        const expected: Array<{ key: string; count: number }> = [];
// <each event>
        await publish('__event__', __times__);
        await eventsSettled(t);
        expected.push({ key: '__event__', count: __times__ });
// </each>
        const all = await get('/v1/__route__');
        expect([all.status, all.headers['content-type'], all.body]).toEqual([200, JSON_CONTENT_TYPE, expected]);
        const paged: unknown[] = [];
        for (let path: string | undefined = '/v1/__route__?limit=1'; path !== undefined; ) {
          const page = await get(path);
          expect(page.status).toBe(200);
          paged.push(...page.body);
          path = /<([^>]+)>; rel="next"/.exec(page.headers.link ?? '')?.[1];
        }
        expect(paged).toEqual(expected);
        const one = await get(`/v1/__route__/${encodeURIComponent(expected[0].key)}`);
        expect([one.status, one.body]).toEqual([200, expected[0]]);
      });

      it('answers 404 for a key nothing is counted under, exactly as written', async () => {
        const response = await get('/v1/__route__/never-heard');
        expect([response.status, response.body]).toEqual([
          404,
          errorBody(404, '__thing_snake___not_found', 'nothing is counted under "never-heard"'),
        ]);
      });

      it('takes no write: the events write it, and POST is answered 405', async () => {
        const response = await t.http().post('/v1/__route__').set(AUTH).send({ key: 'made-up' });
        expect([response.status, response.headers.allow, response.body]).toEqual([
          405,
          'GET, HEAD',
          errorBody(405, 'method_not_allowed', 'POST is not supported on /v1/__route__; use GET, HEAD'),
        ]);
      });

      it('answers 401 without a key', async () => {
        const response = await t.http().get('/v1/__route__');
        expect(response.status).toBe(401);
        expect(response.body).toEqual(
          errorBody(401, 'missing_api_key', 'an API key is required: send Authorization: Bearer <key>'),
        );
      });
    },
  );
}
