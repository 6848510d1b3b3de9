import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, queryDatabase, type TestDatabase } from '../support/databases';
import { buildWithGenerated } from '../support/repository-copy';
import { startService, type ServiceProcess } from '../support/service-process';
import { TEST_API_KEY } from '../support/test-app';
import { scaled, waitFor } from '../support/wait-for';
import { startWriters } from '../support/writers';

/**
 * Another team's subscriber that hangs, dawdles and throws, in the built service under load (issue 52): the modules
 * `npm run generate:module` writes (`gadgets --bare`, and `audits --bare --subscribes-to pets.pet-created`), built in
 * a copy of this repository, the audits' handler then made to misbehave by the pet's name: it waits 50 ms (an
 * outbound call) before its statement for most pets, never settles for every 25th, and throws for the one after.
 * Creates of both modules are answered 201 throughout, the service stops at once on SIGTERM, every other pet is
 * recorded once, and the stuck and failing ones are parked with why.
 */
const CREATES = 1_500;
const BOUND_MS = scaled(600_000);
const WAIT_MS = 240_000;

const MISBEHAVING = `  private async handle(event: PetCreated): Promise<void> {
    const n = Number(/-(\\d+)$/.exec(event.payload.name)?.[1] ?? 0);
    if (n % 25 === 0) await new Promise<never>(() => undefined);
    if (n % 25 === 1) throw new Error('the audit refuses pet number ' + n);
    await new Promise((resolve) => setTimeout(resolve, n % 5 === 0 ? 50 : 0));
    await this.db.write(`;

describe('a generated subscriber that hangs, dawdles and throws, under load', () => {
  let copy: string;
  let main: string;

  beforeAll(async () => {
    const modules = [
      ['gadgets', '--bare'],
      ['audits', '--bare', '--subscribes-to', 'pets.pet-created'],
    ];
    ({ copy, main } = await buildWithGenerated('petstore-stuck-subscriber-', modules, (folder) => {
      const handler = join(folder, 'libs/audits/src/infrastructure/pet-created.subscription.ts');
      const source = readFileSync(handler, 'utf8');
      const plain = '  private async handle(event: PetCreated): Promise<void> {\n    await this.db.write(';
      expect(source).toContain(plain);
      writeFileSync(handler, source.replace(plain, MISBEHAVING));
    }));
  }, BOUND_MS);
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  for (const kind of DATABASE_KINDS) {
    it.skipIf(kind.skipReason)(
      `${kind.name}: both modules' creates answered 201, a prompt SIGTERM, each pet heard once or parked${kind.skipReason ? ` (skipped: ${kind.skipReason})` : ''}`,
      async () => {
        const database: TestDatabase = await kind.create();
        const running: ServiceProcess[] = [];
        const start = async () => {
          const service = await startService(
            {
              API_KEYS: TEST_API_KEY,
              DATABASE_URL: database.url,
              EVENTS_POLL_MS: '50',
              EVENTS_MAX_ATTEMPTS: '2',
              EVENTS_HANDLER_TIMEOUT_MS: '500',
              LOG_LEVEL: 'info',
            },
            scaled(30_000),
            main,
          );
          running.push(service);
          return service;
        };
        const rows = (sql: string) => queryDatabase(database.url, sql);
        const count = async (sql: string) => Number((await rows(sql))[0].n);
        try {
          const service = await start();
          const pets = startWriters(service.baseUrl, { concurrency: 8, prefix: 'pet' });
          const gadgets = startWriters(service.baseUrl, {
            concurrency: 8,
            prefix: 'gadget',
            path: '/v1/gadgets',
            bodyOf: () => ({}),
          });
          await waitFor(
            () => pets.acknowledged().length + gadgets.acknowledged().length >= CREATES,
            `${CREATES} acknowledged creates`,
            WAIT_MS,
          );
          await pets.stop();
          await gadgets.stop();
          // Every answer a 201: none waited for the subscriber, none was an empty reply or a 503.
          for (const writers of [pets, gadgets]) {
            expect(writers.outcomes.filter((outcome) => outcome.status !== 201)).toEqual([]);
          }
          // The subscriber is behind, a handler likely stuck: SIGTERM ends the service cleanly all the same.
          service.child.kill('SIGTERM');
          expect(await service.exited).toBe(0);
          expect(service.output()).not.toContain('still busy');
          await start();

          const created = pets
            .acknowledged()
            .map((pet) => ({ id: String(pet.id), n: Number(/-(\d+)$/.exec(pet.name)![1]) }));
          const heard = created.filter(({ n }) => n % 25 > 1);
          const refused = created.filter(({ n }) => n % 25 <= 1);
          await waitFor(
            async () =>
              (await count('SELECT COUNT(*) AS n FROM audits_pet_created')) === heard.length &&
              (await count("SELECT COUNT(*) AS n FROM events_parked WHERE subscriber = 'audits.on-pet-created'")) ===
                refused.length,
            'each pet heard, or parked',
            WAIT_MS,
          );
          const recorded = await rows('SELECT aggregate_id FROM audits_pet_created');
          expect(recorded.map((row) => String(row.aggregate_id)).sort()).toEqual(heard.map(({ id }) => id).sort());
          const parked = await rows(
            'SELECT o.aggregate_id, p.error FROM events_parked p JOIN events_outbox o ON o.position = p.position ' +
              "WHERE p.subscriber = 'audits.on-pet-created'",
          );
          const errorOf = new Map(parked.map((row) => [String(row.aggregate_id), String(row.error)]));
          for (const { id, n } of refused) {
            expect(errorOf.get(id)).toBe(
              n % 25 === 0
                ? 'HandlerTimedOut: the handler did not finish within 500 ms (EVENTS_HANDLER_TIMEOUT_MS)'
                : `Error: the audit refuses pet number ${n}`,
            );
          }
        } finally {
          for (const service of running) service.child.kill('SIGKILL');
          await Promise.all(running.map((service) => service.exited));
          await database.drop();
        }
      },
      BOUND_MS,
    );
  }
});
