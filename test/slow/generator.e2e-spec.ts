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
    generated = await run(copy, 'npm', 'run', '-s', 'generate:module', '--', 'gift-cards');
  }, BOUND_MS);
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

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
      const tests = await run(
        copy,
        process.execPath,
        'node_modules/vitest/vitest.mjs',
        'run',
        'libs/gift-cards',
        'test/readme.spec.ts',
        'test/architecture.spec.ts',
        'test/openapi.e2e-spec.ts',
      );
      expect(tests.status, tests.output).toBe(0);
      expect(tests.output).toMatch(/^\d+ passed, 0 failed, \d+ skipped$/m);
      expect(tests.output).toContain('libs/gift-cards/test/gift-cards.e2e-spec.ts');
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
