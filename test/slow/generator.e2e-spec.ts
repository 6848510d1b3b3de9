import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnChild } from '../support/children';
import { scaled } from '../support/wait-for';

/**
 * `npm run generate:module` run on a copy of this repository, followed by the
 * same checks CI runs: so the generator cannot rot, and "a new module is one
 * folder and one registry line" stays true.
 */
const ROOT = resolve(__dirname, '../..');
const NOT_COPIED = new Set(['node_modules', 'dist', '.git', 'data', 'coverage', '.work']);
const BOUND_MS = scaled(240_000);

/**
 * A command run to its end, asynchronously: a synchronous child would hold the
 * test worker's event loop for the whole lint gate, long enough for vitest's
 * calls between worker and runner to time out on a loaded machine.
 */
function run(cwd: string, command: string, ...args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawnChild(command, args, { cwd, env: { ...process.env, CI: 'true' }, timeout: BOUND_MS });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolvePromise({ status, output }));
  });
}

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
    copy = mkdtempSync(join(tmpdir(), 'petstore-generator-'));
    cpSync(ROOT, copy, { recursive: true, filter: (source) => !NOT_COPIED.has(source.split('/').pop()!) });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    before = snapshot(copy);
    // Served under a path of its own choosing, as a store's gift cards would be.
    generated = await run(
      copy,
      'npm',
      'run',
      '-s',
      'generate:module',
      '--',
      'gift-cards',
      '--path',
      'store/gift-cards',
    );
  }, BOUND_MS);
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  /** The copy's own suites, as `npx vitest run <files>` runs them there. */
  const vitest = (...files: string[]) => run(copy, process.execPath, 'node_modules/vitest/vitest.mjs', 'run', ...files);

  it('adds one folder under libs/ and one line to the feature registry, and touches nothing else', () => {
    expect(generated.status, generated.output).toBe(0);
    const after = snapshot(copy);
    const changed = [...after].filter(([file, hash]) => before.get(file) !== hash).map(([file]) => file);
    const outsideModule = changed.filter((file) => !file.startsWith('libs/gift-cards/'));
    expect(outsideModule).toEqual(['apps/petstore/src/feature-registry.ts']);
    expect(changed.filter((file) => file.startsWith('libs/gift-cards/')).length).toBeGreaterThanOrEqual(20);
    const registry = readFileSync(join(copy, 'apps/petstore/src/feature-registry.ts'), 'utf8');
    const original = readFileSync(join(ROOT, 'apps/petstore/src/feature-registry.ts'), 'utf8');
    expect(registry).toBe(`${original}export { giftCardsFeature } from '@app/gift-cards';\n`);
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
    'takes a new column and a query with no SQL: a TypeORM migration, the entity, and its repository',
    async () => {
      const module = join(copy, 'libs/gift-cards');
      const edit = (path: string, from: string, to: string) => {
        const text = readFileSync(join(module, path), 'utf8');
        expect(text, path).toContain(from);
        writeFileSync(join(module, path), text.replace(from, to));
      };
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
        'src/infrastructure/migrations/index.ts',
        `export const GIFT_CARDS_MIGRATIONS = [CreateGiftCards${created}];`,
        `import { AddGiftCardNote${created + 1} } from './${created + 1}-add-gift-card-note';\n` +
          `export const GIFT_CARDS_MIGRATIONS = [CreateGiftCards${created}, AddGiftCardNote${created + 1}];`,
      );
      edit(
        'src/infrastructure/gift-card.record.ts',
        '  status: string;\n',
        "  status: string;\n\n  @Column({ type: 'varchar', length: 100, nullable: true })\n  note?: string | null;\n",
      );
      edit(
        'src/infrastructure/typeorm-gift-card.repository.ts',
        '  async list(',
        [
          '  /** How many gift cards have `status`. */',
          '  countByStatus(status: string): Promise<number> {',
          '    return this.records.countBy({ status });',
          '  }',
          '',
          '  /** Notes a gift card; `undefined` when there is none with `id`. */',
          '  async setNote(id: number, note: string): Promise<string | null | undefined> {',
          '    return this.db.transaction(async () => {',
          '      const record = await this.records.findOneBy({ id });',
          '      if (!record) return undefined;',
          '      record.note = note;',
          '      return (await this.records.save(record)).note;',
          '    });',
          '  }',
          '',
          '  async list(',
        ].join('\n'),
      );
      writeFileSync(
        join(module, 'test/note.e2e-spec.ts'),
        [
          "import { afterAll, beforeAll, describe, expect, it } from 'vitest';",
          "import { DATABASE_KINDS } from '@test/support/databases';",
          "import { AUTH, startTestApp, type TestApp } from '@test/support/test-app';",
          "import { GiftCardRepository } from '../src/domain/gift-card.repository';",
          "import type { TypeOrmGiftCardRepository } from '../src/infrastructure/typeorm-gift-card.repository';",
          '',
          'for (const kind of DATABASE_KINDS) {',
          '  describe.skipIf(kind.skipReason)(`a note and a count, on ${kind.name}`, () => {',
          '    let t: TestApp;',
          '    beforeAll(async () => (t = await startTestApp({ kind })));',
          '    afterAll(() => t?.close());',
          '',
          "    it('stores the new column and answers the new query', async () => {",
          "      for (const body of [{ name: 'A' }, { name: 'B', status: 'active' }, { name: 'C' }]) {",
          "        expect((await t.http().post('/v1/store/gift-cards').set(AUTH).send(body)).status).toBe(201);",
          '      }',
          '      const cards = t.app.get(GiftCardRepository, { strict: false }) as TypeOrmGiftCardRepository;',
          "      expect(await cards.setNote(2, 'for Ada')).toBe('for Ada');",
          "      expect(await cards.setNote(99, 'nobody')).toBeUndefined();",
          "      expect(await cards.countByStatus('draft')).toBe(2);",
          "      expect(await cards.countByStatus('active')).toBe(1);",
          "      const two = await t.http().get('/v1/store/gift-cards/2').set(AUTH);",
          "      expect(two.body).toEqual({ id: 2, name: 'B', status: 'active' });",
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
      // Not one SQL statement in the module, before or after the change.
      const sources = readdirSync(join(module, 'src'), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.ts'))
        .map((file) => readFileSync(join(module, 'src', file), 'utf8'));
      for (const source of sources) {
        expect(source).not.toMatch(/\b(SELECT|INSERT INTO|UPDATE \S+ SET|DELETE FROM|CREATE TABLE|ALTER TABLE)\b/i);
      }
    },
    BOUND_MS,
  );

  it('refuses a name that is taken or not kebab-case, writing nothing', async () => {
    const taken = await run(copy, 'npm', 'run', '-s', 'generate:module', '--', 'pets');
    expect(taken.status).toBe(1);
    expect(taken.output).toContain('generate:module: libs/pets exists already');
    const bad = await run(copy, 'npm', 'run', '-s', 'generate:module', '--', 'Gift_Cards');
    expect(bad.status).toBe(1);
    expect(bad.output).toContain('generate:module: "Gift_Cards" is not a kebab-case name such as orders or gift-cards');
    const badPath = await run(copy, 'npm', 'run', '-s', 'generate:module', '--', 'orders', '--path', '/store//orders');
    expect(badPath.status).toBe(1);
    expect(badPath.output).toContain(
      'generate:module: "/store//orders" is not a path of kebab-case segments such as orders or store/orders',
    );
  });

  it('writes prose with the right article: "a gift card", "an order"', async () => {
    const controller = readFileSync(join(copy, 'libs/gift-cards/src/http/gift-cards.controller.ts'), 'utf8');
    expect(controller).toContain("summary: 'Add a gift card'");
    const registry = join(copy, 'apps/petstore/src/feature-registry.ts');
    const registered = readFileSync(registry, 'utf8');
    try {
      const orders = await run(copy, 'npm', 'run', '-s', 'generate:module', '--', 'orders');
      expect(orders.status, orders.output).toBe(0);
      const ordersController = readFileSync(join(copy, 'libs/orders/src/http/orders.controller.ts'), 'utf8');
      expect(ordersController).toContain("summary: 'Add an order'");
      expect(ordersController).toContain("summary: 'Get an order'");
      expect(ordersController).not.toMatch(/\ba order\b/i);
    } finally {
      rmSync(join(copy, 'libs/orders'), { recursive: true, force: true });
      writeFileSync(registry, registered);
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
