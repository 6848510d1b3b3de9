import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import config, {
  COMPUTED_IMPORTS,
  DECORATOR_STATE,
  EARLY_EXIT_COMPARES,
  LIBRARY_PRIVATES,
  NEST_INTERNALS,
  UNSCOPED_ROUTES,
} from '../eslint.config.mjs';
import { libraryErrorCodes } from './support/service-modules';

/**
 * The architecture's rules live in .dependency-cruiser.cjs and
 * scripts/check-architecture.mjs, and run in `npm run lint` over the real
 * tree. Here they run over a deliberately broken tree, so that a rule that
 * stopped firing (a typo in a pattern, an import form it misses) fails a test
 * instead of passing everything silently.
 */
const ROOT = resolve(__dirname, '..');
const FIXTURE = resolve(__dirname, 'fixtures/architecture');
const CHECK = resolve(ROOT, 'scripts/check-architecture.mjs');

type Violation = { rule: { name: string }; from: string; to: string };

describe('architecture rules', () => {
  // The check exits 1, as it found violations; it lists them on stdout.
  const check = spawnSync(process.execPath, [CHECK, '--json', 'libs', 'apps'], {
    cwd: FIXTURE,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const violations = (JSON.parse(check.stdout) as Violation[])
    .map(
      ({ rule, from, to }) =>
        `${rule.name}: ${from} -> ${to.replace(/^.*\bnode_modules\/((@[^/]+\/)?[^/]+).*$/, '$1')}`,
    )
    .sort();

  it('fire on every broken import and root module of the fixture, however it is written, and on nothing else', () => {
    expect(violations).toEqual([
      'app-imports-every-library: apps/web/src/app.module.ts -> libs/ring-a',
      'app-imports-every-library: apps/web/src/app.module.ts -> libs/ring-b',
      'application-uses-only-its-domain: libs/shop/src/application/uses-framework.ts -> @nestjs/common',
      'apps-use-module-indexes: apps/web/src/main.ts -> libs/shop/src/domain/thing.ts',
      'capabilities-know-no-feature: libs/cache/src/index.ts -> libs/shop/src/index.ts',
      'domain-is-plain-typescript: libs/shop/src/domain/double-quoted.ts -> typeorm',
      'domain-is-plain-typescript: libs/shop/src/domain/dynamic-import.ts -> @nestjs/common',
      'domain-is-plain-typescript: libs/shop/src/domain/required.ts -> class-validator',
      'domain-is-plain-typescript: libs/shop/src/domain/type-only.ts -> libs/shop/src/infrastructure/thing.record.ts',
      'http-does-not-reach-infrastructure: libs/shop/src/http/things.controller.ts -> libs/shop/src/infrastructure/thing.record.ts',
      'imports-resolve: libs/other/src/deep-alias.ts -> @app/shop/domain/thing',
      'infrastructure-does-not-reach-http: libs/shop/src/infrastructure/thing.record.ts -> libs/shop/src/http/thing.dto.ts',
      'modules-meet-through-their-index: libs/other/src/reaches-in.ts -> libs/shop/src/domain/thing.ts',
      'no-cycles-between-folders: libs/shop/src/http -> libs/shop/src/infrastructure',
      'no-cycles-between-folders: libs/shop/src/infrastructure -> libs/shop/src/http',
      'no-cycles-between-modules: libs/ring-a/src/index.ts -> libs/ring-b/src/index.ts',
      'platform-knows-no-feature: libs/platform/src/knows-a-feature.ts -> libs/shop/src/index.ts',
      'platform-plain-entries-are-plain-typescript: libs/platform/src/errors/app-error.ts -> @nestjs/common',
      'platform-plain-entries-are-plain-typescript: libs/platform/src/ports/unit-of-work.ts -> @nestjs/common',
      'test-doubles-only-in-tests: libs/shop/src/infrastructure/uses-a-test-double.ts -> libs/platform/src/testing/index.ts',
      'undeclared-imports-are-event-types: libs/shop/src/takes-a-draft.ts -> libs/news/src/index.ts#NewsDraft',
    ]);
  });

  it('have a fixture file for every rule they define', () => {
    const rules = [
      ...readFileSync(resolve(ROOT, '.dependency-cruiser.cjs'), 'utf8').matchAll(/name: '([a-z-]+)'/g),
      ...readFileSync(CHECK, 'utf8').matchAll(/^ {2}'([a-z-]+)':$/gm),
    ].map((match) => match[1]);
    expect(new Set(violations.map((line) => line.split(':')[0]))).toEqual(new Set(rules));
  });
});

/** What ESLint's no-restricted-syntax says of `source` with these selectors, as the lint gate configures it. */
function restrictedSyntax(source: string, selectors: ReadonlyArray<{ selector: string; message: string }>) {
  return new Linter({ configType: 'flat' }).verify(source, [
    { languageOptions: { parser: tseslint.parser }, rules: { 'no-restricted-syntax': ['error', ...selectors] } },
  ]);
}

/** The lint gate's no-restricted-syntax for the files of `glob` (the configuration's entry that names it). */
function restrictedSyntaxIn(glob: string): unknown {
  const entry = (config as Array<{ files?: string[]; rules?: Record<string, unknown> }>).find((candidate) =>
    candidate.files?.includes(glob),
  );
  return entry?.rules?.['no-restricted-syntax'];
}

describe('computed imports', () => {
  it('are refused by ESLint, which the cruise cannot follow', () => {
    const file = resolve(FIXTURE, 'libs/shop/src/domain/computed-import.ts');
    const messages = restrictedSyntax(readFileSync(file, 'utf8'), COMPUTED_IMPORTS);
    expect(messages.map(({ line, message }) => `${line}: ${message}`)).toEqual([
      '3: Import a module by a path written out: the layer rules cannot follow a computed one.',
      '4: Require a module by a path written out: the layer rules cannot follow a computed one.',
    ]);
  });

  it('are refused in the whole tree by the lint gate', () => {
    const rule = (config as Array<{ rules?: Record<string, unknown> }>).find(
      (entry) => entry.rules?.['no-restricted-syntax'],
    );
    expect(rule?.rules?.['no-restricted-syntax']).toEqual(['error', ...COMPUTED_IMPORTS, ...LIBRARY_PRIVATES]);
  });
});

describe("a library's own state", () => {
  it("is refused by ESLint: underscored members, TypeORM's runner flags and driver pool, node-postgres' socket", () => {
    const file = resolve(FIXTURE, 'libs/shop/src/infrastructure/reaches-into-libraries.ts');
    const messages = restrictedSyntax(readFileSync(file, 'utf8'), LIBRARY_PRIVATES);
    const underscored =
      "A library's underscored member is its own: use what it offers, or measure and write a decision.";
    const typed = "A type that reaches a library's underscored member: use what the library offers.";
    const flags =
      "TypeORM's query runner keeps its transaction's state: begin, commit and roll back with its startTransaction(), " +
      'commitTransaction() and rollbackTransaction().';
    expect(messages.map(({ line, message }) => `${line}: ${message}`)).toEqual([
      `6: ${underscored}`,
      `6: ${typed}`,
      "7: node-postgres' connection keeps its socket: use the client's query() and end().",
      `8: ${flags}`,
      `8: ${flags}`,
      `9: ${flags}`,
      `10: TypeORM's driver keeps its pool and connections: take a connection with a query runner's connect().`,
      `11: ${underscored}`,
    ]);
  });

  it('is refused in the whole tree by the lint gate', () => {
    for (const glob of [undefined, 'libs/*/src/**/*.ts', 'libs/auth/src/**/*.ts']) {
      const rule = glob
        ? restrictedSyntaxIn(glob)
        : (config as Array<{ files?: string[]; rules?: Record<string, unknown> }>).find(
            (entry) => !entry.files && entry.rules?.['no-restricted-syntax'],
          )?.rules?.['no-restricted-syntax'];
      expect(rule).toEqual(expect.arrayContaining([...LIBRARY_PRIVATES]));
    }
  });
});

describe('routes that state no scope', () => {
  it('are refused by ESLint: a route of a controller not @Scoped(), neither @RequiresScope() nor @Public()', () => {
    const source = [
      "@Controller('a') export class A { @Get() list() {} @Post() @Public() open() {} }",
      "@Controller('b') @Scoped('b') export class B { @Get() list() {} @Delete(':id') remove() {} }",
      "@Controller('c') export class C { @Post() @RequiresScope('c:write') add() {} helper() {} }",
      "@Controller('d') class D { @Patch(':id') change() {} @All('*') any() {} }",
    ].join('\n');
    const messages = restrictedSyntax(source, UNSCOPED_ROUTES);
    const refused =
      "A route states its scope: @Scoped('<area>') on its controller, @RequiresScope('<area>:<access>') or @Public() (@ForMonitors()) on it.";
    expect(messages.map(({ line, column, message }) => `${line}:${column} ${message}`)).toEqual([
      `1:35 ${refused}`,
      `4:28 ${refused}`,
      `4:54 ${refused}`,
    ]);
  });

  it("are refused in the service's code by the lint gate, beside computed imports", () => {
    expect(restrictedSyntaxIn('libs/*/src/**/*.ts')).toEqual([
      'error',
      ...COMPUTED_IMPORTS,
      ...LIBRARY_PRIVATES,
      ...UNSCOPED_ROUTES,
    ]);
  });
});

describe("Nest's internals", () => {
  it("are refused by ESLint: a path inside a Nest package, and Nest's own Body", () => {
    const source = [
      "import { METHOD_METADATA } from '@nestjs/common/constants';",
      "import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';",
      "import { getParamArgsMetadata } from '@nestjs/common/internal';",
      "import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/dist/constants';",
      "import { Controller, Get, Body } from '@nestjs/common';",
      "import { Reflector } from '@nestjs/core';",
      "import { RouteConfig } from '@nestjs/platform-fastify';",
    ].join('\n');
    const messages = new Linter({ configType: 'flat' }).verify(source, [
      { languageOptions: { parser: tseslint.parser }, rules: { 'no-restricted-imports': ['error', NEST_INTERNALS] } },
    ]);
    const inside = NEST_INTERNALS.patterns[0].message;
    expect(messages.map(({ line, message }) => `${line}: ${message}`)).toEqual([
      `1: '@nestjs/common/constants' import is restricted from being used by a pattern. ${inside}`,
      `2: '@nestjs/common/enums/route-paramtypes.enum' import is restricted from being used by a pattern. ${inside}`,
      `3: '@nestjs/common/internal' import is restricted from being used by a pattern. ${inside}`,
      `4: '@nestjs/platform-fastify/dist/constants' import is restricted from being used by a pattern. ${inside}`,
      `5: 'Body' import from '@nestjs/common' is restricted. ${NEST_INTERNALS.paths[0].message}`,
    ]);
  });

  it('are refused in every TypeScript file by the lint gate', () => {
    const entry = (config as Array<{ files?: string[]; rules?: Record<string, unknown> }>).find(
      (candidate) => candidate.files?.includes('**/*.ts') && candidate.rules?.['no-restricted-imports'],
    );
    expect(entry?.files).toEqual(['**/*.ts']);
    expect(entry?.rules?.['no-restricted-imports']).toEqual(['error', NEST_INTERNALS]);
  });
});

describe('state kept by a decorator file', () => {
  it('is refused by ESLint: a collection or a variable at the top of the file, not metadata on the target', () => {
    const source = [
      'const declared = new Set<string>();',
      'export const routes: string[] = [];',
      'let last: string | undefined;',
      'const handlers = new WeakMap<object, string>();',
      "export const SCOPE_METADATA = 'petstore:scope';",
      'const BEARER = /^bearer (.+)$/i;',
      "export function Scoped(area: string): ClassDecorator { const seen = new Set<string>(); return SetMetadata('area', area); }",
    ].join('\n');
    const messages = restrictedSyntax(source, DECORATOR_STATE);
    const collection = DECORATOR_STATE[0].message;
    expect(messages.map(({ line, message }) => `${line}: ${message}`)).toEqual([
      `1: ${collection}`,
      `2: ${collection}`,
      `3: ${DECORATOR_STATE[1].message}`,
      `4: ${collection}`,
    ]);
  });

  it("is refused by the lint gate in every decorator file of the service's code", () => {
    const decorators = (config as Array<{ files?: string[]; rules?: Record<string, unknown> }>).filter((entry) =>
      entry.files?.some((glob) => glob.endsWith('*.decorator.ts')),
    );
    expect(decorators.map((entry) => entry.files)).toEqual([
      ['apps/*/src/**/*.decorator.ts', 'libs/*/src/**/*.decorator.ts'],
      ['libs/auth/src/**/*.decorator.ts'],
    ]);
    for (const entry of decorators) {
      expect(entry.rules?.['no-restricted-syntax']).toEqual(expect.arrayContaining([...DECORATOR_STATE]));
    }
  });
});

describe('comparisons of secrets', () => {
  it('are refused by ESLint where they stop at the first difference', () => {
    const source = [
      'const a = digestOf(presented).equals(stored);',
      'const b = Buffer.compare(digestOf(presented), stored) === 0;',
      'const c = timingSafeEqual(digestOf(presented), stored);',
    ].join('\n');
    const messages = restrictedSyntax(source, EARLY_EXIT_COMPARES);
    expect(messages.map(({ line }) => line)).toEqual([1, 2]);
  });

  it('are refused by the lint gate in the auth module', () => {
    expect(restrictedSyntaxIn('libs/auth/src/**/*.ts')).toEqual([
      'error',
      ...COMPUTED_IMPORTS,
      ...LIBRARY_PRIVATES,
      ...UNSCOPED_ROUTES,
      ...EARLY_EXIT_COMPARES,
    ]);
  });
});

describe("the libraries' error codes", () => {
  it("are each one library's own", async () => {
    const codes = [...(await libraryErrorCodes()).values()].flat();
    expect(codes.length).toBeGreaterThan(0);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('nest-cli.json', () => {
  it('names only projects that exist', () => {
    const cli = JSON.parse(readFileSync(resolve(ROOT, 'nest-cli.json'), 'utf8')) as {
      projects: Record<string, { root: string; compilerOptions: { tsConfigPath: string } }>;
    };
    for (const project of Object.values(cli.projects)) {
      expect(readdirSync(resolve(ROOT, project.root))).toContain('src');
      expect(readFileSync(resolve(ROOT, project.compilerOptions.tsConfigPath), 'utf8')).toContain('"extends"');
    }
  });
});

describe("each library's index.ts", () => {
  /** The names an index.ts exports (`export { a, type b, c as d }`, `export type {...}`, `export const e`). */
  const exportsOf = (text: string) => [
    ...[...text.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap((match) =>
      match[1]
        .split(',')
        .map((name) =>
          name
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)
            .at(-1)!,
        )
        .filter(Boolean),
    ),
    ...[...text.matchAll(/^export (?:const|class|function|abstract class) (\w+)/gm)].map((match) => match[1]),
  ];
  const SKIPPED = /^(node_modules|dist|coverage|\.git|test\/fixtures)$/;
  /** Every source file of the tree outside `libs/<name>/`: the app, the other libraries, tests, bench, scripts. */
  const sourcesOutside = (name: string, folder = ROOT): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
      const path = join(folder, entry.name);
      const relativePath = relative(ROOT, path);
      if (entry.isDirectory()) {
        return SKIPPED.test(relativePath) || relativePath === `libs/${name}` ? [] : sourcesOutside(name, path);
      }
      return /\.(ts|mjs|cjs|tpl)$/.test(entry.name) ? [path] : [];
    });

  const libraries = readdirSync(resolve(ROOT, 'libs'));
  it.each(libraries)('of %s exports only what is used outside it, or what docs/extending.md offers modules', (name) => {
    const index = readFileSync(resolve(ROOT, 'libs', name, 'src/index.ts'), 'utf8');
    const elsewhere = [
      ...sourcesOutside(name).map((file) => readFileSync(file, 'utf8')),
      readFileSync(resolve(ROOT, 'docs/extending.md'), 'utf8'),
    ].join('\n');
    // `<NAME>_ERROR_CODES` are read by the tests of the error catalogue, whichever the library (support/service-modules.ts).
    const unused = exportsOf(index).filter(
      (exported) => !exported.endsWith('_ERROR_CODES') && !new RegExp(`\\b${exported}\\b`).test(elsewhere),
    );
    expect(exportsOf(index).length).toBeGreaterThan(0);
    expect(unused).toEqual([]);
  });
});
