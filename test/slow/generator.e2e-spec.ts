import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnChild } from '../support/children';
import { OtlpReceiver } from '../support/otlp-receiver';
import { COMMAND_BOUND_MS, NOT_COPIED, ROOT, copyRepository, runIn } from '../support/repository-copy';
import { TEST_API_KEY } from '../support/test-app';
import { scaled, waitFor } from '../support/wait-for';

/**
 * `npm run generate:module` run on a copy of this repository, followed by the
 * same checks CI runs: so the generator cannot rot, and "a new module is one
 * folder and its line in the app module's FEATURES" stays true.
 */
const BOUND_MS = scaled(240_000);
/** The whole fast suite, run in the copy: about two minutes on a quiet machine, four beside two busy loops. */
const SUITE_BOUND_MS = COMMAND_BOUND_MS;
const run = runIn;

/** Every file of the tree (but what is not copied) with a hash of its content. */
function snapshot(folder: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (NOT_COPIED.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(folder, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(folder);
  return files;
}

describe('npm run generate:module', () => {
  let copy: string;
  let before: Map<string, string>;
  let generated: Awaited<ReturnType<typeof run>>;

  beforeAll(async () => {
    copy = copyRepository('petstore-generator-');
    before = snapshot(copy);
    // Served under a path of its own choosing, as a store's gift cards would be.
    generated = await generate('gift-cards', '--path', 'store/gift-cards');
  }, BOUND_MS);
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  /** `npm run generate:module -- <args>` in the copy. */
  const generate = (...args: string[]) => run(copy, 'npm', 'run', '-s', 'generate:module', '--', ...args);

  /** Replaces `from` with `to` in a file of the copy, as a developer would edit it; `from` must be there. */
  const edit = (path: string, from: string, to: string) => {
    const text = readFileSync(join(copy, path), 'utf8');
    expect(text, path).toContain(from);
    writeFileSync(join(copy, path), text.replace(from, to));
  };

  /** The copy's own suites, as `npx vitest run <files>` runs them there. */
  const vitest = (...files: string[]) => run(copy, process.execPath, 'node_modules/vitest/vitest.mjs', 'run', ...files);

  it("adds one folder under libs/ and its Nest module to the app module's FEATURES, and touches nothing else", () => {
    expect(generated.status, generated.output).toBe(0);
    const after = snapshot(copy);
    const changed = [...after].filter(([file, hash]) => before.get(file) !== hash).map(([file]) => file);
    const outsideModule = changed.filter((file) => !file.startsWith('libs/gift-cards/'));
    expect(outsideModule).toEqual(['apps/petstore/src/app.module.ts', 'nest-cli.json']);
    expect(changed.filter((file) => file.startsWith('libs/gift-cards/')).length).toBeGreaterThanOrEqual(20);
    const appModule = readFileSync(join(copy, 'apps/petstore/src/app.module.ts'), 'utf8');
    const original = readFileSync(join(ROOT, 'apps/petstore/src/app.module.ts'), 'utf8');
    const lastImport = "import { PETSTORE_SERVICE } from './service-info';\n";
    expect(original).toContain(lastImport);
    expect(original).toContain('export const FEATURES: Type[] = [PetsModule, StoreModule];');
    expect(appModule).toBe(
      original
        .replace(lastImport, `${lastImport}import { GiftCardsModule } from '@app/gift-cards';\n`)
        .replace('[PetsModule, StoreModule]', '[PetsModule, StoreModule, GiftCardsModule]'),
    );
    expect(readFileSync(join(copy, 'libs/gift-cards/src/domain/gift-card-status.ts'), 'utf8')).toContain(
      'export class GiftCardStatus',
    );
    // A neutral skeleton: nothing of the pets module comes along.
    const moduleText = changed
      .filter((file) => file.startsWith('libs/gift-cards/'))
      .map((file) => readFileSync(join(copy, file), 'utf8'))
      .join('\n');
    expect(moduleText).not.toMatch(/pet/i);
  });

  it(
    'writes a module that passes the whole lint gate as it is',
    async () => {
      const lint = await run(copy, 'npm', 'run', '-s', 'lint');
      expect(lint.status, lint.output).toBe(0);
    },
    BOUND_MS,
  );

  it(
    'writes a module whose own suites pass, with the README, architecture and OpenAPI checks',
    async () => {
      const tests = await vitest(
        'libs/gift-cards',
        'test/readme.spec.ts',
        'test/architecture.spec.ts',
        'test/openapi.e2e-spec.ts',
        'test/schema.e2e-spec.ts',
      );
      expect(tests.status, tests.output).toBe(0);
      expect(tests.output).toMatch(/^\d+ passed, 0 failed, \d+ skipped$/m);
      expect(tests.output).toContain('libs/gift-cards/test/gift-cards.e2e-spec.ts');
    },
    BOUND_MS,
  );

  it(
    'takes a new column and a query: a TypeORM migration, the entity, and a statement of its repository',
    async () => {
      const module = join(copy, 'libs/gift-cards');
      const migrations = readdirSync(join(module, 'src/infrastructure/migrations'));
      const created = Number(migrations.find((file) => /^\d{13}-/.test(file))!.slice(0, 13));
      writeFileSync(
        join(module, `src/infrastructure/migrations/${created + 1}-add-gift-card-note.ts`),
        [
          "import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';",
          '',
          `export class AddGiftCardNote${created + 1} implements MigrationInterface {`,
          `  name = 'AddGiftCardNote${created + 1}';`,
          '  async up(queryRunner: QueryRunner): Promise<void> {',
          "    await queryRunner.addColumn('gift_cards', new TableColumn({ name: 'note', type: 'varchar', length: '100', isNullable: true }));",
          '  }',
          '  async down(queryRunner: QueryRunner): Promise<void> {',
          "    await queryRunner.dropColumn('gift_cards', 'note');",
          '  }',
          '}',
          '',
        ].join('\n'),
      );
      edit(
        'libs/gift-cards/src/infrastructure/migrations/index.ts',
        `export const GIFT_CARDS_MIGRATIONS = [CreateGiftCards${created}];`,
        `import { AddGiftCardNote${created + 1} } from './${created + 1}-add-gift-card-note';\n` +
          `export const GIFT_CARDS_MIGRATIONS = [CreateGiftCards${created}, AddGiftCardNote${created + 1}];`,
      );
      edit(
        'libs/gift-cards/src/infrastructure/gift-card.record.ts',
        '  status: string;\n',
        "  status: string;\n\n  @Column({ type: 'varchar', length: 100, nullable: true })\n  note?: string | null;\n",
      );
      edit(
        'libs/gift-cards/src/infrastructure/sql-gift-card.repository.ts',
        '  async list(',
        [
          '  /** How many gift cards have `status`. */',
          '  async countByStatus(status: string): Promise<number> {',
          '    const [row] = await this.db.read<{ count: number | string }>(',
          "      this.db.dialect.statement('SELECT COUNT(*) AS count FROM gift_cards WHERE status = $1'),",
          '      [status],',
          '    );',
          '    return Number(row.count);',
          '  }',
          '',
          '  /** Notes a gift card: whether there was one with `id`. */',
          '  async setNote(id: bigint, note: string): Promise<boolean> {',
          '    const { changed } = await this.db.write(',
          "      this.db.dialect.statement('UPDATE gift_cards SET note = $2 WHERE gift_cards.id = $1'),",
          '      [String(id), note],',
          '    );',
          '    return changed === 1;',
          '  }',
          '',
          '  async list(',
        ].join('\n'),
      );
      writeFileSync(
        join(module, 'test/note.e2e-spec.ts'),
        [
          "import { afterAll, beforeAll, describe, expect, it } from 'vitest';",
          "import { DATABASE_KINDS, queryDatabase } from '@test/support/databases';",
          "import { AUTH, startTestApp, type TestApp } from '@test/support/test-app';",
          "import { GiftCardRepository } from '../src/domain/gift-card.repository';",
          "import type { SqlGiftCardRepository } from '../src/infrastructure/sql-gift-card.repository';",
          '',
          'for (const kind of DATABASE_KINDS) {',
          '  describe.skipIf(kind.skipReason)(`a note and a count, on ${kind.name}`, () => {',
          '    let t: TestApp;',
          '    beforeAll(async () => (t = await startTestApp({ kind })));',
          '    afterAll(() => t?.close());',
          '',
          "    it('stores the new column and answers the new query', async () => {",
          '      const ids: bigint[] = [];',
          "      for (const body of [{ name: 'A' }, { name: 'B', status: 'active' }, { name: 'C' }]) {",
          "        const created = await t.http().post('/v1/store/gift-cards').set(AUTH).send(body);",
          '        expect(created.status).toBe(201);',
          '        ids.push(BigInt(created.body.id));',
          '      }',
          '      const cards = t.app.get(GiftCardRepository, { strict: false }) as SqlGiftCardRepository;',
          "      expect(await cards.setNote(ids[1], 'for Ada')).toBe(true);",
          "      expect(await cards.setNote(ids[2] + 100n, 'nobody')).toBe(false);",
          "      expect(await cards.countByStatus('draft')).toBe(2);",
          "      expect(await cards.countByStatus('active')).toBe(1);",
          "      const notes = await queryDatabase(t.database.url, 'SELECT note FROM gift_cards ORDER BY id');",
          "      expect(notes.map((row) => row.note)).toEqual([null, 'for Ada', null]);",
          '    });',
          '  });',
          '}',
          '',
        ].join('\n'),
      );
      await run(copy, 'node_modules/.bin/prettier', '--log-level', 'warn', '--write', module);
      const tests = await vitest('libs/gift-cards', 'test/schema.e2e-spec.ts');
      expect(tests.status, tests.output).toBe(0);
      expect(tests.output).toContain('libs/gift-cards/test/note.e2e-spec.ts');
      const lint = await run(copy, 'npm', 'run', '-s', 'lint');
      expect(lint.status, lint.output).toBe(0);
    },
    BOUND_MS,
  );

  it(
    "traces a generated module's statements: each a child span of its request's, on its route's template",
    async () => {
      const build = await run(copy, 'npm', 'run', '-s', 'build');
      expect(build.status, build.output).toBe(0);
      const receiver = await OtlpReceiver.start();
      const folder = mkdtempSync(join(tmpdir(), 'petstore-generated-'));
      const service = spawnChild(process.execPath, [join(copy, 'dist/apps/petstore/src/main.js')], {
        env: {
          PATH: process.env.PATH ?? '',
          NODE_ENV: 'test',
          PORT: '0',
          API_KEYS: TEST_API_KEY,
          DATABASE_URL: `sqlite:${join(folder, 'p.sqlite')}`,
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_BSP_SCHEDULE_DELAY: '20',
        },
      });
      try {
        let output = '';
        service.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        await waitFor(() => /listening on (http:\/\/[\d.]+:\d+)/.test(output), 'the generated service to listen');
        const baseUrl = /listening on (http:\/\/[\d.]+:\d+)/.exec(output)![1];
        const headers = { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' };
        const created = await fetch(`${baseUrl}/v1/store/gift-cards`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: 'Traced' }),
        });
        expect(created.status).toBe(201);
        const { id } = (await created.json()) as { id: number };
        const read = await fetch(`${baseUrl}/v1/store/gift-cards/${id}`, { headers });
        expect(read.status).toBe(200);
        for (const [answer, request, statement] of [
          [created, 'POST /v1/store/gift-cards', 'INSERT gift_cards'],
          [read, 'GET /v1/store/gift-cards/:giftCardId', 'SELECT gift_cards'],
        ] as const) {
          const traceId = /^00-([0-9a-f]{32})-/.exec(answer.headers.get('traceresponse') ?? '')![1];
          await waitFor(
            () => receiver.spans().filter((span) => span.traceId === traceId).length >= 2,
            `the spans of ${request}`,
          );
          const spans = receiver.spans().filter((span) => span.traceId === traceId);
          const root = spans.find((span) => span.parentSpanId === undefined)!;
          expect(root).toMatchObject({ name: request });
          // A read is the request's child; a unit of work's write, its transaction's, which is the request's.
          const parent = spans.find(
            (span) => span.spanId === spans.find(({ name }) => name === statement)?.parentSpanId,
          );
          if (statement.startsWith('SELECT')) expect(parent).toBe(root);
          else expect(parent).toMatchObject({ name: 'transaction', parentSpanId: root.spanId });
        }
      } finally {
        service.kill('SIGKILL');
        await receiver.stop();
        rmSync(folder, { recursive: true, force: true });
      }
    },
    BOUND_MS,
  );

  it('writes a bare module with --bare: an id, create and get, none of the sample fields or the list route; beta with --stability beta', async () => {
    const bare = await generate('widgets', '--bare', '--stability', 'beta');
    expect(bare.status, bare.output).toBe(0);
    const files = readdirSync(join(copy, 'libs/widgets'), { recursive: true, encoding: 'utf8' }).sort();
    expect(files.filter((file) => /status|list-|query/.test(file))).toEqual([]);
    expect(readFileSync(join(copy, 'libs/widgets/src/domain/widget.ts'), 'utf8')).toContain(
      'private constructor(stored: { id: bigint; version: number } | undefined) {',
    );
    const controller = readFileSync(join(copy, 'libs/widgets/src/http/widgets.controller.ts'), 'utf8');
    expect(controller.match(/operationId: '\w+'/g)).toEqual([
      "operationId: 'createWidget'",
      "operationId: 'getWidget'",
    ]);
    expect(controller.match(/@Stability\('\w+'\)/g)).toEqual(["@Stability('beta')", "@Stability('beta')"]);
    // No marker of the template's blocks is left in any file.
    const text = files
      .filter((file) => /\.(ts|md|json)$/.test(file))
      .map((file) => readFileSync(join(copy, 'libs/widgets', file), 'utf8'))
      .join('\n');
    expect(text).not.toMatch(/<\/?(sample|bare)>/);
    // Its lint and suites run with the whole suite, in the next case.
  });

  it('leaves out PATCH with --no-update and DELETE with --no-delete: their routes, use cases, statements and tests', async () => {
    const receipts = await generate('receipts', '--no-update', '--no-delete');
    expect(receipts.status, receipts.output).toBe(0);
    const module = join(copy, 'libs/receipts');
    const controller = readFileSync(join(module, 'src/http/receipts.controller.ts'), 'utf8');
    expect(controller.match(/operationId: '\w+'/g)).toEqual([
      "operationId: 'listReceipts'",
      "operationId: 'createReceipt'",
      "operationId: 'getReceipt'",
    ]);
    const files = readdirSync(module, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(ts|md)$/.test(file));
    expect(files.filter((file) => file.includes('update-'))).toEqual([]);
    const text = files.map((file) => readFileSync(join(module, file), 'utf8')).join('\n');
    // Nothing of either is left: no route, use case, port method, statement, test or README row.
    expect(text).not.toMatch(/\b(Patch|Delete|update|remove|checkChanges|ReceiptChanges|UpdateReceiptDto)\b/);
    expect(text).not.toMatch(/<\/?(sample|bare|update|delete)>/);
    // Its lint and suites run with the whole suite, in a case below.
  });

  it('writes the fields --fields names through every layer: a value object per enum, bounds, columns, tests', async () => {
    const tasks = await generate(
      'tasks',
      '--fields',
      'title:string(1..80) state:enum(open,on-hold,closed)=open priority:enum(low,high) note:string(0..500)? ' +
        'petId:int64 seats:int(1..12) parentId:int64?',
    );
    expect(tasks.status, tasks.output).toBe(0);
    const module = join(copy, 'libs/tasks');
    const read = (file: string) => readFileSync(join(module, file), 'utf8');
    expect(readdirSync(join(module, 'src/domain')).sort()).toEqual([
      'in-memory-task.repository.ts',
      'task-priority.spec.ts',
      'task-priority.ts',
      'task-state.spec.ts',
      'task-state.ts',
      'task.errors.ts',
      'task.repository.ts',
      'task.spec.ts',
      'task.ts',
    ]);
    expect(read('src/domain/task-state.ts')).toContain("static readonly OnHold = new TaskState('on-hold');");
    const migration = readdirSync(join(module, 'src/infrastructure/migrations')).find((file) =>
      /create-tasks/.test(file),
    );
    const columns = read(`src/infrastructure/migrations/${migration}`);
    for (const column of [
      "{ name: 'title', type: 'varchar', length: '80' }",
      "{ name: 'state', type: 'varchar', length: '16' }",
      "{ name: 'note', type: 'varchar', length: '500', isNullable: true }",
      "{ name: 'parent_id', type: 'bigint', isNullable: true }",
      "{ name: 'pet_id', type: 'bigint' }",
      "{ name: 'seats', type: 'integer' }",
      `{ name: 'CHK_tasks_state', expression: \`"state" IN ('open', 'on-hold', 'closed')\` }`,
    ]) {
      expect(columns).toContain(column);
    }
    const create = read('src/http/dto/create-task.dto.ts');
    expect(create).toContain(
      "@ApiPropertyOptional({ enum: TASK_STATE_VALUES, enumName: 'TaskState', default: 'open' })",
    );
    expect(create).toContain("@IsDefined({ message: 'priority is required' })");
    expect(read('README.md')).toContain('JSON `{title, state?, priority, note?, petId, seats, parentId?}`');
    // An optional field is left out of an answer when absent, and a PATCH of null clears it; a save writes every field.
    expect(read('src/http/dto/task.response.ts')).toContain('...(task.note === null ? {} : { note: task.note })');
    expect(read('src/infrastructure/sql-task.repository.ts')).toContain(
      "'UPDATE tasks SET title = $3, state = $4, priority = $5, note = $6, pet_id = $7, seats = $8, parent_id = $9, version = version + 1 ' +",
    );
    expect(read('src/infrastructure/sql-task.repository.ts')).toContain('CAST(pet_id AS TEXT) AS "petId"');
    // Nothing of the sample's fields is left.
    const text = readdirSync(module, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(ts|md)$/.test(file))
      .map((file) => read(file))
      .join('\n');
    expect(text).not.toMatch(
      /name: string|record\.name|Status|draft|__(?!proto__)\w+__|\/\/ <\/?(each|string|enum|defaulted|required|sample)/,
    );
    // Its lint and suites, each field's bounds on both databases, run with the whole suite, in a case below.
  });

  it('writes a module like an order for a pet with one command: ref(pets) checked through PetCatalog in its unit of work, 422 of its own', async () => {
    const purchases = await generate(
      'purchases',
      '--depends-on',
      'pets',
      '--no-update',
      '--fields',
      'petId:ref(pets) quantity:int(1..100) note:string? status:enum(placed,approved,delivered)=placed',
    );
    expect(purchases.status, purchases.output).toBe(0);
    const read = (file: string) => readFileSync(join(copy, 'libs/purchases', file), 'utf8');
    const service = read('src/application/purchases.service.ts');
    expect(service).toContain(
      [
        '      await this.checkPetId(purchase.petId);',
        '      await this.purchases.save(purchase);',
        '      return purchase;',
        '    });',
      ].join('\n'),
    );
    expect(service).toContain('if (!(await this.pets.exists(petId))) throw new UnknownPurchasePetError(petId);');
    expect(read('src/domain/purchase.errors.ts')).toContain("unknownPet: 'purchase_unknown_pet',");
    expect(read('src/purchases.module.ts')).toContain('inject: [PurchaseRepository, PetCatalogPort, UnitOfWork],');
    expect(read('src/http/purchases.controller.ts')).not.toContain('@Patch(');
    // Its tests make the pets it names through pets' own API; they run, with lint, with the whole suite below.
    expect(read('test/purchases.e2e-spec.ts')).toContain(
      "expect(await makeExamples(t, '/v1/pets', 2)).toEqual([1, 2]);",
    );
  });

  it('writes a subscriber with --subscribes-to pets.pet-created: the event type alone taken from pets, its table and test', async () => {
    const audits = await generate('audits', '--bare', '--subscribes-to', 'pets.pet-created');
    expect(audits.status, audits.output).toBe(0);
    const module = join(copy, 'libs/audits');
    const subscription = readFileSync(join(module, 'src/infrastructure/pet-created.subscription.ts'), 'utf8');
    // Of pets, the event's type and nothing else; no import of its Nest module.
    expect(subscription.match(/^import .*'@app\/pets';$/gm)).toEqual(["import type { PetCreated } from '@app/pets';"]);
    expect(subscription).toContain("subscriber: 'audits.on-pet-created',");
    expect(subscription).toContain("event: 'pets.pet-created',");
    const nestModule = readFileSync(join(module, 'src/audits.module.ts'), 'utf8');
    expect(nestModule).not.toContain('@app/pets');
    expect(nestModule).toContain('    PetCreatedSubscription,\n');
    expect(nestModule).toContain('entities: [AuditRecord, PetCreatedRecord]');
    expect(readFileSync(join(module, 'src/infrastructure/migrations/index.ts'), 'utf8')).toMatch(
      /AUDITS_MIGRATIONS = \[CreateAudits\d{13}, CreateAuditsPetCreated\d{13}\]/,
    );
    expect(readFileSync(join(module, 'README.md'), 'utf8')).toContain('## Subscribes to pets.pet-created');
    // Its test (the event recorded once, after a create over HTTP) runs with the whole suite, in the next case.
    expect(existsSync(join(module, 'test/pet-created.subscription.e2e-spec.ts'))).toBe(true);
    // Another module's event than pets': its test publishes the event in a unit of work of the application, since
    // a create of a pet would never make it (it runs with the whole suite, in the next case).
    const ledgers = await generate('ledgers', '--bare', '--subscribes-to', 'store.order-placed');
    expect(ledgers.status, ledgers.output).toBe(0);
    const heard = readFileSync(join(copy, 'libs/ledgers/test/order-placed.subscription.e2e-spec.ts'), 'utf8');
    expect(heard).toContain("import type { OrderPlaced } from '@app/store';");
    expect(heard).toContain('await publishEvent<OrderPlaced>(t, {');
    expect(heard).not.toContain("post('/v1/pets')");

    const unknown = await generate('notices', '--bare', '--subscribes-to', 'pets.pet-sold');
    expect(unknown.status).toBe(1);
    expect(unknown.output).toContain(
      "generate:module: --subscribes-to pets.pet-sold: libs/pets/src/index.ts exports no event type named 'pets.pet-sold' from a *.event.ts file",
    );
    const nowhere = await generate('notices', '--bare', '--subscribes-to', 'kennels.kennel-opened');
    expect(nowhere.status).toBe(1);
    expect(nowhere.output).toContain(
      'generate:module: --subscribes-to kennels.kennel-opened: there is no module libs/kennels',
    );
    const unnamed = await generate('notices', '--bare', '--subscribes-to', 'PetCreated');
    expect(unnamed.status).toBe(1);
    expect(unnamed.output).toContain(
      'generate:module: --subscribes-to needs the name of an event: --subscribes-to pets.pet-created',
    );
    expect(existsSync(join(copy, 'libs/notices'))).toBe(false);
  });

  it('writes a read model with --read-model: a subscription per event, counting into its one table, a paged GET and no write', async () => {
    const activity = await generate(
      'pet-activity',
      '--entity',
      'activity',
      '--read-model',
      '--subscribes-to',
      'pets.pet-created',
      '--subscribes-to',
      'store.order-placed',
    );
    expect(activity.status, activity.output).toBe(0);
    const module = join(copy, 'libs/pet-activity');
    const read = (file: string) => readFileSync(join(module, file), 'utf8');
    const subscriptions = read('src/infrastructure/pet-activity.subscriptions.ts');
    for (const [event, subscriber] of [
      ['pets.pet-created', 'pet-activity.on-pets-pet-created'],
      ['store.order-placed', 'pet-activity.on-store-order-placed'],
    ]) {
      expect(subscriptions).toContain(
        [
          `      subscriber: '${subscriber}',`,
          `      event: '${event}',`,
          `      handle: () => petActivity.count('${event}'),`,
        ].join('\n'),
      );
    }
    // Of the publishers, their events' types and nothing else: no import of their Nest modules.
    expect(subscriptions.match(/^import .*'@app\/(pets|store)';$/gm)).toEqual([
      "import type { PetCreated } from '@app/pets';",
      "import type { OrderPlaced } from '@app/store';",
    ]);
    expect(read('src/pet-activity.module.ts')).not.toMatch(/@app\/(pets|store)/);
    const controller = read('src/http/pet-activity.controller.ts');
    expect(controller.match(/@(Get|Post|Put|Patch|Delete)\(.*\)/g)).toEqual(['@Get()', "@Get(':key')"]);
    // One table, no table per event heard.
    expect(readdirSync(join(module, 'src/infrastructure/migrations')).filter((file) => /^\d/.test(file))).toEqual([
      expect.stringMatching(/^\d{13}-create-pet-activity\.ts$/),
    ]);
    // Its tests (each event published, counted once, then read a page at a time) run with lint and the whole suite below.
  });

  it(
    'writes a module that depends on pets (its port, adapter and module import), whose cross-module write is one transaction, and the whole suite passes',
    async () => {
      const reservations = await generate('reservations', '--path', 'shop/reservations', '--depends-on', 'pets');
      expect(reservations.status, reservations.output).toBe(0);
      expect(readFileSync(join(copy, 'libs/reservations/src/reservations.module.ts'), 'utf8')).toContain(
        "import { PetsModule } from '@app/pets';",
      );
      expect(readFileSync(join(copy, 'libs/reservations/src/domain/pet-catalog.port.ts'), 'utf8')).toContain(
        [
          'export abstract class PetCatalogPort {',
          '  abstract exists(id: bigint): Promise<boolean>;',
          '  abstract reserve(id: bigint): Promise<boolean>;',
          '  abstract release(id: bigint): Promise<boolean>;',
          '  abstract sell(id: bigint): Promise<boolean>;',
          '}',
        ].join('\n'),
      );
      const wiring = readFileSync(join(copy, 'libs/reservations/src/reservations.module.ts'), 'utf8');
      expect(wiring).toMatch(/imports: \[\s*PetsModule,\s*DatabaseModule\.forFeature\(/);
      expect(wiring).toContain('{ provide: PetCatalogPort, useClass: PetCatalogAdapter },');

      // What a team then writes: a reservation may name a pet, which it reserves in the same transaction.
      edit(
        'libs/reservations/src/http/dto/create-reservation.dto.ts',
        '  status?: ReservationStatusValue;\n',
        [
          '  status?: ReservationStatusValue;',
          '',
          "  @ApiPropertyOptional({ type: 'integer', format: 'int64', description: 'The pet the reservation reserves.' })",
          '  @ValidateIf((body: CreateReservationDto) => body.petId !== undefined)',
          "  @IsInt64('petId must be an integer')",
          '  petId?: number | bigint;',
          '',
        ].join('\n'),
      );
      edit(
        'libs/reservations/src/http/dto/create-reservation.dto.ts',
        "import { IsDefined, IsIn, IsString, Length, ValidateIf } from 'class-validator';",
        "import { IsDefined, IsIn, IsString, Length, ValidateIf } from 'class-validator';\nimport { IsInt64 } from '@app/validation';",
      );
      edit(
        'libs/reservations/src/application/reservations.service.ts',
        "import { ReservationNotFoundError } from '../domain/reservation.errors';",
        [
          "import { InvalidReservationError, ReservationNotFoundError } from '../domain/reservation.errors';",
          "import type { PetCatalogPort } from '../domain/pet-catalog.port';",
        ].join('\n'),
      );
      edit(
        'libs/reservations/src/application/reservations.service.ts',
        '    private readonly reservations: ReservationRepository,\n',
        '    private readonly reservations: ReservationRepository,\n    private readonly pets: PetCatalogPort,\n',
      );
      edit(
        'libs/reservations/src/application/reservations.service.ts',
        'create(command: { name: string; status?: string }): Promise<Reservation> {',
        'create(command: { name: string; status?: string; petId?: number | bigint }): Promise<Reservation> {',
      );
      edit(
        'libs/reservations/src/application/reservations.service.ts',
        '      await this.reservations.save(reservation);\n      return reservation;\n    });\n  }\n\n  /** Changes',
        [
          '      await this.reservations.save(reservation);',
          '      // Refused after the reservation was saved: nothing of the unit of work is written.',
          '      if (command.petId !== undefined && !(await this.pets.reserve(BigInt(command.petId)))) {',
          '        throw new InvalidReservationError(`pet ${command.petId} is not available`);',
          '      }',
          '      return reservation;',
          '    });',
          '  }',
          '',
          '  /** Changes',
        ].join('\n'),
      );
      edit(
        'libs/reservations/src/reservations.module.ts',
        [
          '      inject: [ReservationRepository, UnitOfWork],',
          '      useFactory: (reservations: ReservationRepository, unitOfWork: UnitOfWork) =>',
          '        new ReservationsService(reservations, unitOfWork),',
        ].join('\n'),
        [
          '      inject: [ReservationRepository, PetCatalogPort, UnitOfWork],',
          '      useFactory: (reservations: ReservationRepository, pets: PetCatalogPort, unitOfWork: UnitOfWork) =>',
          '        new ReservationsService(reservations, pets, unitOfWork),',
        ].join('\n'),
      );
      edit(
        'libs/reservations/src/application/reservations.service.spec.ts',
        '    service = new ReservationsService(repository, unitOfWork);',
        [
          '    const pets = { reserve: async () => true } as unknown as PetCatalogPort;',
          '    service = new ReservationsService(repository, pets, unitOfWork);',
        ].join('\n'),
      );
      edit(
        'libs/reservations/src/application/reservations.service.spec.ts',
        "import { ReservationsService } from './reservations.service';",
        "import type { PetCatalogPort } from '../domain/pet-catalog.port';\nimport { ReservationsService } from './reservations.service';",
      );
      writeFileSync(
        join(copy, 'libs/reservations/test/reservation-reserves-pet.e2e-spec.ts'),
        [
          "import { afterAll, beforeAll, describe, expect, it } from 'vitest';",
          "import { DATABASE_KINDS } from '@test/support/databases';",
          "import { AUTH, startTestApp, type TestApp } from '@test/support/test-app';",
          '',
          'for (const kind of DATABASE_KINDS) {',
          '  describe.skipIf(kind.skipReason)(`a reservation reserves its pet, on ${kind.name}`, () => {',
          '    let t: TestApp;',
          '    beforeAll(async () => (t = await startTestApp({ kind })));',
          '    afterAll(() => t?.close());',
          '',
          "    it('of two same-tick reservations for one pet, keeps one and reserves the pet once', async () => {",
          "      const pet = await t.http().post('/v1/pets').set(AUTH).send({ name: 'Rex', categoryId: 1, status: 'available' });",
          '      expect(pet.status).toBe(201);',
          '      const both = await Promise.all(',
          "        ['first', 'second'].map((name) =>",
          "          t.http().post('/v1/shop/reservations').set(AUTH).send({ name, petId: pet.body.id }),",
          '        ),',
          '      );',
          '      expect(both.map((answer) => answer.status).sort()).toEqual([201, 400]);',
          '      const [kept, refused] = both[0].status === 201 ? both : [both[1], both[0]];',
          '      expect(refused.body).toEqual({',
          "        code: 'invalid_reservation',",
          '        message: `pet ${pet.body.id} is not available`,',
          '        status: 400,',
          '      });',
          '      // The refused reservation was never written: its unit of work failed before its commit.',
          "      expect((await t.http().get('/v1/shop/reservations').set(AUTH)).body).toEqual([kept.body]);",
          '      const reserved = await t.http().get(`/v1/pets/${pet.body.id}`).set(AUTH);',
          "      expect(reserved.body).toEqual({ ...pet.body, status: 'pending' });",
          '    });',
          '  });',
          '}',
          '',
        ].join('\n'),
      );
      await run(copy, 'node_modules/.bin/prettier', '--log-level', 'warn', '--write', join(copy, 'libs/reservations'));
      const lint = await run(copy, 'npm', 'run', '-s', 'lint');
      expect(lint.status, lint.output).toBe(0);
      // Every suite of the service, the backup's (its table list from the modules) and both modules' included.
      const tests = await run(copy, process.execPath, 'node_modules/vitest/vitest.mjs', 'run', '--project', 'fast');
      expect(tests.status, tests.output).toBe(0);
      expect(tests.output).toMatch(/^\d+ passed, 0 failed, \d+ skipped$/m);
      expect(tests.output).toContain('libs/reservations/test/reservation-reserves-pet.e2e-spec.ts');
      expect(tests.output).toContain('libs/widgets/test/widgets.e2e-spec.ts');
      expect(tests.output).toContain('libs/purchases/test/purchases.e2e-spec.ts');
      expect(tests.output).toContain('libs/pet-activity/test/pet-activity.e2e-spec.ts');
      expect(tests.output).toContain('test/backup.e2e-spec.ts');
    },
    SUITE_BOUND_MS,
  );

  it('refuses a name that is taken or not kebab-case, a route another module serves, or a dependency that is no feature module, writing nothing', async () => {
    const taken = await generate('pets');
    expect(taken.status).toBe(1);
    expect(taken.output).toContain('generate:module: libs/pets exists already');
    const bad = await generate('Gift_Cards');
    expect(bad.status).toBe(1);
    expect(bad.output).toContain('generate:module: "Gift_Cards" is not a kebab-case name such as orders or gift-cards');
    const badPath = await generate('orders', '--path', '/store//orders');
    expect(badPath.status).toBe(1);
    expect(badPath.output).toContain(
      'generate:module: "/store//orders" is not a path of kebab-case segments such as orders or store/orders',
    );
    // The service would refuse to start: "Method 'GET' already declared for route '/v1/pets'".
    const clash = await generate('gadgets', '--path', 'pets');
    expect(clash.status).toBe(1);
    expect(clash.output).toContain(
      'generate:module: --path pets: libs/pets serves GET /v1/pets already (libs/pets/src/http/pets.controller.ts): ' +
        'choose a path no module serves (without --path, /v1/gadgets)',
    );
    expect(existsSync(join(copy, 'libs/gadgets'))).toBe(false);
    const unstable = await generate('gadgets', '--stability', 'alpha');
    expect(unstable.status).toBe(1);
    expect(unstable.output).toContain(
      'generate:module: --stability needs a level, beta or experimental: --stability beta (a stable module has none)',
    );
    const capability = await generate('bookings', '--depends-on', 'database');
    expect(capability.status).toBe(1);
    expect(capability.output).toContain(
      'generate:module: --depends-on database: database is a capability (it serves no route), used as it is: import @app/database',
    );
    const missing = await generate('bookings', '--depends-on', 'kennels');
    expect(missing.status).toBe(1);
    expect(missing.output).toContain('generate:module: --depends-on kennels: there is no module libs/kennels');
    expect(existsSync(join(copy, 'libs/bookings'))).toBe(false);
  });

  it('writes prose with the right article: "a gift card", "an offer"', async () => {
    const controller = readFileSync(join(copy, 'libs/gift-cards/src/http/gift-cards.controller.ts'), 'utf8');
    expect(controller).toContain("summary: 'Add a gift card'");
    const appModule = join(copy, 'apps/petstore/src/app.module.ts');
    const composed = readFileSync(appModule, 'utf8');
    const nestCli = join(copy, 'nest-cli.json');
    const projects = readFileSync(nestCli, 'utf8');
    try {
      const offers = await generate('offers');
      expect(offers.status, offers.output).toBe(0);
      const offersController = readFileSync(join(copy, 'libs/offers/src/http/offers.controller.ts'), 'utf8');
      expect(offersController).toContain("summary: 'Add an offer'");
      expect(offersController).toContain("summary: 'Get an offer'");
      expect(offersController).not.toMatch(/\ba offer\b/i);
    } finally {
      rmSync(join(copy, 'libs/offers'), { recursive: true, force: true });
      writeFileSync(appModule, composed);
      writeFileSync(nestCli, projects);
    }
  });

  describe('the lint gate, on the generated module', () => {
    const breakFile = async (path: string, text: string, check: () => Promise<void>) => {
      writeFileSync(join(copy, path), text);
      try {
        await check();
      } finally {
        rmSync(join(copy, path));
      }
    };

    it(
      'fails on a type error in a spec file',
      () =>
        breakFile('libs/gift-cards/src/domain/broken.spec.ts', "export const count: number = 'three';\n", async () => {
          const lint = await run(copy, 'npm', 'run', '-s', 'lint');
          expect(lint.status).not.toBe(0);
          expect(lint.output).toContain('libs/gift-cards/src/domain/broken.spec.ts(1,14): error TS2322');
        }),
      BOUND_MS,
    );

    it(
      'fails on a forbidden import, whatever its quotes or form',
      () =>
        breakFile(
          'libs/gift-cards/src/domain/broken.ts',
          'import { Entity } from "typeorm";\nexport const entity = Entity;\nexport const load = () => import(\'@nestjs/common\');\n',
          async () => {
            const lint = await run(copy, 'npm', 'run', '-s', 'lint:architecture');
            expect(lint.status).not.toBe(0);
            expect(lint.output).toMatch(
              /domain-is-plain-typescript: libs\/gift-cards\/src\/domain\/broken\.ts → .*node_modules\/typeorm\//,
            );
            expect(lint.output).toMatch(
              /domain-is-plain-typescript: libs\/gift-cards\/src\/domain\/broken\.ts → .*node_modules\/@nestjs\/common\//,
            );
          },
        ),
      BOUND_MS,
    );
  });
});
