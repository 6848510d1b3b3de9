import { afterEach, describe, expect, it } from 'vitest';
import { queryDatabase } from '../support/databases';
import { OWN_POSTGRES_SKIP_REASON, ownPostgres, type OwnPostgres } from '../support/postgres-server';
import { servicePerTest } from '../support/service-process';
import { TEST_API_KEY } from '../support/test-app';
import { waitFor } from '../support/wait-for';

interface Answer {
  kind: 'plain' | 'keyed' | 'list';
  name?: string;
  key?: string;
  status?: number;
  body?: { id?: string | number; name?: string; code?: string };
  error?: string;
  /** Sent once the service had recovered from the last stall, and answered before the next began. */
  afterRecovery: boolean;
}

const STALLS = 3;
const CLIENTS = 12;
/** The service's database timeout: a statement stalled this long is answered 503. */
const TIMEOUT_MS = 1_000;

/**
 * The PostgreSQL server paused (SIGSTOP to it and every backend) under mixed creates and reads, three times, then
 * resumed: statements time out while in flight, their rollbacks too. Afterwards every answer is correct (no connection
 * comes back from the pool inside a transaction), every 201 is committed, and a 503 that says nothing was applied
 * applied nothing.
 */
describe.skipIf(OWN_POSTGRES_SKIP_REASON)(
  `a PostgreSQL server that stalls${OWN_POSTGRES_SKIP_REASON ? ` (skipped: ${OWN_POSTGRES_SKIP_REASON})` : ''}`,
  () => {
    const { start } = servicePerTest(TEST_API_KEY);
    let postgres: OwnPostgres | undefined;
    afterEach(async () => {
      await postgres?.remove();
      postgres = undefined;
    });

    it('loses no acknowledged create and answers correctly once it answers again, stall after stall', async () => {
      postgres = await ownPostgres();
      const service = await start(settings(postgres.url));
      const answers: Answer[] = [];
      let recovered = true;
      let stalls = 0;
      let running = true;
      let counter = 0;
      const send = async (): Promise<Answer> => {
        const n = counter++;
        const kind = (['plain', 'keyed', 'list', 'plain', 'keyed'] as const)[n % 5];
        const [recoveredThen, stallsThen] = [recovered, stalls];
        const answer =
          kind === 'list'
            ? { kind, ...(await request(service.baseUrl, 'GET', '/v1/pets?limit=5')) }
            : { kind, name: `stall-${n}`, key: kind === 'keyed' ? `stall-key-${n}` : undefined };
        if (answer.name) Object.assign(answer, await create(service.baseUrl, answer.name, answer.key));
        return { ...answer, afterRecovery: recoveredThen && stalls === stallsThen };
      };
      const clients = Array.from({ length: CLIENTS }, async () => {
        while (running) answers.push(await send());
      });

      for (let stall = 0; stall < STALLS; stall++) {
        await waitFor(() => answers.filter((answer) => answer.status === 201).length >= 100 * (stall + 1), '201s');
        recovered = false;
        stalls++;
        const before = answers.length;
        postgres.pause();
        // Paused until every client has had two statements time out: long enough for a rollback to time out too.
        await waitFor(
          () => answers.slice(before).filter((answer) => answer.status === 503).length >= 2 * CLIENTS,
          'statements timing out on the paused server',
        );
        postgres.resume();
        // Recovered: ready, and fifty answers in a row succeed (the pool may still be opening connections as it says
        // ready). From then on every request must succeed: a poisoned connection would fail some, stall or no stall.
        await waitFor(async () => (await request(service.baseUrl, 'GET', '/health/ready')).status === 200, 'ready');
        await waitFor(
          () => answers.slice(-50).every((answer) => answer.status === 200 || answer.status === 201),
          'fifty successes in a row',
        );
        recovered = true;
      }
      await waitFor(
        () => answers.filter((answer) => answer.afterRecovery && answer.status !== undefined).length >= 600,
        'answers after the last stall',
        60_000,
      );
      running = false;
      await Promise.all(clients);
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);

      // Nothing but a 200, 201 or 503 at any time; once recovered, nothing but success.
      const statuses = new Set(answers.map((answer) => answer.status ?? answer.error));
      expect([...statuses].filter((status) => ![200, 201, 503].includes(status as number))).toEqual([]);
      const lateFailures = answers.filter(
        (answer) => answer.afterRecovery && answer.status !== 200 && answer.status !== 201,
      );
      expect(lateFailures).toEqual([]);
      const codes = new Set(answers.filter((answer) => answer.status === 503).map((answer) => answer.body?.code));
      expect([...codes].filter((code) => code !== 'database_unavailable' && code !== 'commit_unconfirmed')).toEqual([]);

      const stored = new Map(
        (await queryDatabase(postgres.url, 'SELECT CAST(id AS TEXT) AS id, name FROM pets')).map((row) => [
          row.name as string,
          String(row.id),
        ]),
      );
      // Every 201 is committed, with the id it was answered with.
      const acknowledged = answers.filter((answer) => answer.status === 201);
      expect(acknowledged.filter((answer) => stored.get(answer.name!) !== String(answer.body!.id))).toEqual([]);
      // A 503 that says the database was unavailable applied nothing; one that says the commit was not confirmed may
      // have: a retry with its Idempotency-Key then replays it, or creates it once.
      const refused = answers.filter((answer) => answer.body?.code === 'database_unavailable' && answer.name);
      expect(refused.filter((answer) => stored.has(answer.name!))).toEqual([]);
      const again = await start(settings(postgres.url));
      for (const answer of answers.filter((answer) => answer.status === 503 && answer.key)) {
        const retried = await create(again.baseUrl, answer.name!, answer.key);
        expect(retried.status).toBe(201);
      }
      const names = (await queryDatabase(postgres.url, 'SELECT name FROM pets')).map((row) => row.name as string);
      expect(names.length).toBe(new Set(names).size);
    });
  },
);

/** The service on the paused server, with no rate limit in the way of the load. */
function settings(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    DATABASE_TIMEOUT_MS: String(TIMEOUT_MS),
    RATE_LIMIT_PER_MINUTE: '0',
  };
}

async function request(baseUrl: string, method: string, path: string, body?: string, headers = {}) {
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${TEST_API_KEY}`, ...headers },
      body,
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  } catch (error) {
    return { error: String((error as Error).cause ?? error) };
  }
}

function create(baseUrl: string, name: string, key?: string) {
  const headers = { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) };
  return request(baseUrl, 'POST', '/v1/pets', JSON.stringify({ name, categoryId: 1 }), headers);
}
