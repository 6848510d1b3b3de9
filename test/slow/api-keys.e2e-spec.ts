import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, queryDatabase, type TestDatabase } from '../support/databases';
import { call } from '../support/http-client';
import { runKeysCli, runService, startService, type ServiceProcess } from '../support/service-process';
import { TEST_API_KEY } from '../support/test-app';
import { scaled, waitFor } from '../support/wait-for';

const CACHE_SECONDS = 1;
const STALE_SECONDS = 3;
/** A change must show within API_KEY_CACHE_SECONDS; this much more covers the refresh query and the request. */
const SLACK_MS = scaled(1_500);

/** Polls `GET /v1/pets` with `key` on `service` until it answers `status`, or fails at `deadline`. */
async function untilAnswered(service: ServiceProcess, key: string, status: number, deadline: number) {
  for (;;) {
    const answer = await call(service.baseUrl, 'GET', '/v1/pets', undefined, key);
    if (answer.status === status) return answer;
    if (Date.now() > deadline) throw new Error(`still ${answer.status}, not ${status}, on ${service.baseUrl}`);
    await new Promise((wait) => setTimeout(wait, 50));
  }
}

/** Polls `/health/ready` on `service` until it answers `status`: its body then. */
async function untilReady(service: ServiceProcess, status: number, deadline: number): Promise<unknown> {
  for (;;) {
    const answer = await fetch(`${service.baseUrl}/health/ready`);
    const body: unknown = await answer.json();
    if (answer.status === status) return body;
    if (Date.now() > deadline)
      throw new Error(`readiness still ${answer.status}, not ${status}, on ${service.baseUrl}`);
    await new Promise((wait) => setTimeout(wait, 50));
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Keys managed with `npm run keys` against the database of two running
 * instances: both pick up a new key and refuse a revoked one within
 * API_KEY_CACHE_SECONDS, with no restart.
 */
for (const kind of DATABASE_KINDS) {
  const skipped = kind.skipReason !== undefined;
  describe.skipIf(skipped)(
    `API keys managed with npm run keys, on ${kind.name}${skipped ? ` (skipped: ${kind.skipReason})` : ''}`,
    () => {
      let database: TestDatabase;
      let env: Record<string, string>;
      const services: ServiceProcess[] = [];
      let teamKey: string;
      let prefix: string;

      beforeAll(async () => {
        database = await kind.create();
        env = { DATABASE_URL: database.url };
        // One after the other: the first one migrates the new database.
        for (let n = 0; n < 2; n++) {
          services.push(
            await startService({
              ...env,
              API_KEYS: TEST_API_KEY,
              API_KEY_CACHE_SECONDS: String(CACHE_SECONDS),
              API_KEY_STALE_SECONDS: String(STALE_SECONDS),
              LOG_LEVEL: 'info',
            }),
          );
        }
      });

      afterAll(async () => {
        for (const service of services) {
          service.child.kill('SIGKILL');
          await service.exited;
        }
        await database?.drop();
      });

      it('create prints the key once, and both instances accept it within the bound', async () => {
        const created = await runKeysCli(['create', '--name', 'team-a'], env);
        const deadline = Date.now() + CACHE_SECONDS * 1000 + SLACK_MS;
        teamKey = created.stdout.trim();
        prefix = teamKey.slice(0, 16);
        expect(created).toEqual({
          status: 0,
          stdout: `${teamKey}\n`,
          stderr: `Created key "team-a" (${prefix}), granting *. Store it now: it is not shown again.\n`,
        });
        expect(teamKey).toMatch(/^pst_[0-9a-f]{76}$/);
        for (const service of services) {
          expect(await untilAnswered(service, teamKey, 200, deadline)).toMatchObject({ body: [] });
        }
      });

      it('keeps the key out of the database: a name, its prefix and its SHA-256', async () => {
        const read = () => queryDatabase(database.url, 'SELECT * FROM auth_api_keys');
        // Its last use is written after the answer, not before it (stored-api-keys.ts).
        await waitFor(async () => (await read())[0]?.last_used_at != null, 'the last use recorded');
        const rows = await read();
        expect(rows).toEqual([
          {
            name: 'team-a',
            prefix,
            key_digest: sha256(teamKey),
            scopes: '*',
            created_at: expect.anything(),
            revoked_at: null,
            last_used_at: expect.anything(),
          },
        ]);
        const everything = JSON.stringify(rows);
        expect(everything).not.toContain(teamKey);
        expect(everything).not.toContain(teamKey.slice(16));
      });

      it('list shows name, prefix, created, revoked and when it was last used', async () => {
        const listed = await runKeysCli(['list', '--json'], env);
        expect(listed.status).toBe(0);
        const [entry] = JSON.parse(listed.stdout) as Array<Record<string, string | null>>;
        expect(JSON.parse(listed.stdout)).toEqual([
          {
            name: 'team-a',
            prefix,
            scopes: ['*'],
            createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
            revokedAt: null,
            lastUsedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          },
        ]);
        expect(Date.parse(entry.lastUsedAt!)).toBeGreaterThanOrEqual(Date.parse(entry.createdAt!));

        const table = await runKeysCli(['list'], env);
        expect(table.status).toBe(0);
        const lines = table.stdout.trimEnd().split('\n');
        expect(lines).toHaveLength(2);
        expect(lines[0]).toMatch(/^NAME {4}PREFIX {12}SCOPES {2}CREATED {15}REVOKED {2}LAST USED$/);
        expect(lines[1]).toMatch(
          new RegExp(
            `^team-a {2}${prefix} {2}\\* {7}\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ {2}- {8}\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$`,
          ),
        );
      });

      it('labels the caller by the key name in logs and metrics', async () => {
        const [service] = services;
        const answer = await fetch(`${service.baseUrl}/v1/pets/1`, {
          headers: { authorization: `Bearer ${teamKey}`, 'x-request-id': `named-${kind.name}` },
        });
        expect(answer.status).toBe(404);
        const metrics = await (await fetch(`${service.baseUrl}/metrics`)).text();
        expect(metrics).toContain(
          'petstore_deprecated_operation_calls_total{operation="getPet",sunset="2030-12-05",caller="team-a"} 1\n',
        );
        const logged = () => service.output().includes(`"named-${kind.name}"`);
        await waitFor(logged, 'the request log line');
        const line = service
          .output()
          .split('\n')
          .filter((text) => text.includes(`"named-${kind.name}"`))
          .map((text) => JSON.parse(text) as Record<string, unknown>);
        expect(line).toEqual([
          expect.objectContaining({
            reqId: `named-${kind.name}`,
            route: '/v1/pets/:petId',
            caller: 'team-a',
            res: { statusCode: 404 },
            msg: 'request completed',
          }),
        ]);
        expect(service.output()).not.toContain(teamKey.slice(16));
      });

      it('rotation: a new key works, the old one is refused everywhere within the bound', async () => {
        const next = await runKeysCli(['create', '--name', 'team-a-2026-11'], env);
        expect(next.status).toBe(0);
        const nextKey = next.stdout.trim();
        let deadline = Date.now() + CACHE_SECONDS * 1000 + SLACK_MS;
        for (const service of services) await untilAnswered(service, nextKey, 200, deadline);

        const revoked = await runKeysCli(['revoke', 'team-a'], env);
        deadline = Date.now() + CACHE_SECONDS * 1000 + SLACK_MS;
        expect(revoked).toEqual({ status: 0, stdout: `Revoked key "team-a" (${prefix}).\n`, stderr: '' });
        for (const service of services) {
          expect(await untilAnswered(service, teamKey, 401, deadline)).toMatchObject({
            body: { code: 'invalid_api_key', message: 'the API key is not valid', status: 401 },
          });
          expect((await call(service.baseUrl, 'GET', '/v1/pets', undefined, nextKey)).status).toBe(200);
          // The keys of API_KEYS are accepted as before.
          expect((await call(service.baseUrl, 'GET', '/v1/pets')).status).toBe(200);
        }
        const again = await runKeysCli(['revoke', 'team-a'], env);
        expect(again).toEqual({
          status: 0,
          stdout: expect.stringMatching(/^Key "team-a" was already revoked at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\.\n$/),
          stderr: '',
        });
      });

      it('scoped keys: made with --scopes, narrowed with set-scopes, each change on every instance within the bound', async () => {
        const made = await runKeysCli(['create', '--name', 'dashboard', '--scopes', 'pets:read,store:*'], env);
        expect(made.status).toBe(0);
        expect(made.stderr).toMatch(/^Created key "dashboard" \(pst_[0-9a-f]{12}\), granting pets:read store:\*\. /);
        const dashboard = made.stdout.trim();
        let deadline = Date.now() + CACHE_SECONDS * 1000 + SLACK_MS;
        const forbidden = (scope: string) => ({
          code: 'insufficient_scope',
          message: `the API key does not grant the scope this operation needs: ${scope}`,
          status: 403,
        });
        for (const service of services) {
          await untilAnswered(service, dashboard, 200, deadline);
          const written = await call(service.baseUrl, 'POST', '/v1/pets', { name: 'Rex', categoryId: 1 }, dashboard);
          expect(written).toMatchObject({ status: 403, body: forbidden('pets:write') });
          expect(written.headers.get('www-authenticate')).toBe(
            'Bearer realm="petstore", error="insufficient_scope", scope="pets:write"',
          );
          expect((await call(service.baseUrl, 'GET', '/v1/store/inventory', undefined, dashboard)).status).toBe(200);
        }

        const narrowed = await runKeysCli(['set-scopes', 'dashboard', '--scopes', 'pets:read'], env);
        deadline = Date.now() + CACHE_SECONDS * 1000 + SLACK_MS;
        expect(narrowed).toEqual({
          status: 0,
          stdout: `Key "dashboard" (${dashboard.slice(0, 16)}) granted pets:read store:*; now pets:read.\n`,
          stderr: '',
        });
        for (const service of services) {
          for (;;) {
            const inventory = await call(service.baseUrl, 'GET', '/v1/store/inventory', undefined, dashboard);
            if (inventory.status === 403) {
              expect(inventory.body).toEqual(forbidden('store:read'));
              break;
            }
            if (Date.now() > deadline) throw new Error(`still ${inventory.status}, not 403, on ${service.baseUrl}`);
            await new Promise((wait) => setTimeout(wait, 50));
          }
          expect((await call(service.baseUrl, 'GET', '/v1/pets', undefined, dashboard)).status).toBe(200);
        }
        const listed = JSON.parse((await runKeysCli(['list', '--json'], env)).stdout) as Array<{ name: string }>;
        expect(listed.find((key) => key.name === 'dashboard')).toMatchObject({ scopes: ['pets:read'] });

        // A scope no operation needs is refused, naming those there are; a key is never made with it.
        const refused = await runKeysCli(['create', '--name', 'typo', '--scopes', 'pet:read'], env);
        expect(refused).toEqual({
          status: 1,
          stdout: '',
          stderr: expect.stringMatching(/^"pet:read" grants no operation of this service; its scopes are .*pets:read/),
        });
        expect(await runKeysCli(['set-scopes', 'dashboard', '--scopes', 'pets:delete'], env)).toMatchObject({
          status: 1,
          stderr: expect.stringMatching(/^"pets:delete" is not a scope: /),
        });
        const names = (await queryDatabase(database.url, 'SELECT name FROM auth_api_keys')).map((row) => row.name);
        expect(names).not.toContain('typo');
      });

      it('while the key table cannot be read: readiness 503 at once, stored keys refused 503 after API_KEY_STALE_SECONDS', async () => {
        const created = await runKeysCli(['create', '--name', 'team-b'], env);
        const teamB = created.stdout.trim();
        let deadline = Date.now() + CACHE_SECONDS * 1000 + SLACK_MS;
        for (const service of services) await untilAnswered(service, teamB, 200, deadline);

        // The table goes away (a bad migration, a lost grant), and the key is revoked where the instances cannot see.
        await queryDatabase(database.url, 'ALTER TABLE auth_api_keys RENAME TO auth_api_keys_away');
        const away = Date.now();
        await queryDatabase(database.url, `UPDATE auth_api_keys_away SET revoked_at = 1 WHERE name = 'team-b'`);
        try {
          deadline = Date.now() + CACHE_SECONDS * 1000 + SLACK_MS;
          for (const service of services) {
            expect(await untilReady(service, 503, deadline)).toEqual({
              code: 'not_ready',
              message: 'not ready: the API keys cannot be read from the database',
              status: 503,
            });
          }
          deadline = away + (STALE_SECONDS + CACHE_SECONDS) * 1000 + SLACK_MS;
          for (const service of services) {
            const refused = await untilAnswered(service, teamB, 503, deadline);
            // Counted from the last refresh that read the table, at most CACHE_SECONDS before it went away.
            expect(Date.now() - away).toBeGreaterThanOrEqual((STALE_SECONDS - CACHE_SECONDS) * 1000);
            expect({ status: refused.status, body: refused.body }).toEqual({
              status: 503,
              body: {
                code: 'api_keys_unavailable',
                message: `the API keys could not be read from the database for more than ${STALE_SECONDS} s; retry shortly`,
                status: 503,
              },
            });
            // The keys of API_KEYS do not depend on the database.
            expect((await call(service.baseUrl, 'GET', '/v1/pets')).status).toBe(200);
          }
        } finally {
          await queryDatabase(database.url, 'ALTER TABLE auth_api_keys_away RENAME TO auth_api_keys');
        }
        deadline = Date.now() + CACHE_SECONDS * 1000 + SLACK_MS;
        for (const service of services) {
          expect(await untilAnswered(service, teamB, 401, deadline)).toMatchObject({
            body: { code: 'invalid_api_key' },
          });
          await untilReady(service, 200, deadline);
        }
      });

      it('refuses a taken name, an unknown name and a bad name with a message and exit status 1', async () => {
        expect(await runKeysCli(['create', '--name', 'team-a'], env)).toEqual({
          status: 1,
          stdout: '',
          stderr: 'a key named "team-a" exists already (names are never reused)\n',
        });
        expect(await runKeysCli(['revoke', 'nobody'], env)).toEqual({
          status: 1,
          stdout: '',
          stderr: 'no key is named "nobody"\n',
        });
        expect(await runKeysCli(['create', '--name', 'two words'], env)).toEqual({
          status: 1,
          stdout: '',
          stderr:
            '"two words" cannot name a key: use 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or a digit\n',
        });
      });
    },
  );
}

describe('the built npm run keys', () => {
  // Its refusals are tested in process (test/keys-command.spec.ts); this is the exit status and stream they reach.
  it('answers a usage error on stderr with exit status 2, and its usage on stdout with 0 when asked', async () => {
    const refused = await runKeysCli(['frob'], { DATABASE_URL: 'sqlite:/nonexistent/never-opened.sqlite' });
    expect(refused.status).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/^unknown command "frob"\n\nUsage: npm run keys -- <command>\n/);
    const help = await runKeysCli(['--help'], {});
    expect(help.status).toBe(0);
    expect(help.stderr).toBe('');
    expect(help.stdout).toMatch(/^Usage: npm run keys -- <command>\n/);
  });
});

describe('a production service without API_KEYS', () => {
  let folder: string;
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('serves the keys of the database, and stops naming API_KEYS when there is none', async () => {
    folder = mkdtempSync(join(tmpdir(), 'petstore-production-'));
    const production = {
      NODE_ENV: 'production',
      API_KEYS: '',
      DATABASE_URL: `sqlite:${join(folder, 'data', 'petstore.sqlite')}`,
    };
    const refused = runService({ ...production, PORT: '0' });
    expect(await refused.exited).toBe(1);
    const last = JSON.parse(refused.output().trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(last).toMatchObject({
      level: 60,
      context: 'Bootstrap',
      variable: 'API_KEYS',
      msg: 'Invalid configuration: API_KEYS must be set in production while the database holds no API key (or create one: npm run keys -- create --name <name>)',
    });
    const created = await runKeysCli(['create', '--name', 'first-team'], production);
    expect(created.status).toBe(0);
    const service = await startService(production);
    try {
      expect((await call(service.baseUrl, 'GET', '/v1/pets', undefined, created.stdout.trim())).status).toBe(200);
      expect((await call(service.baseUrl, 'GET', '/v1/pets', undefined, TEST_API_KEY)).status).toBe(401);
    } finally {
      service.child.kill('SIGKILL');
      await service.exited;
    }
  });
});
