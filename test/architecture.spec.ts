import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import config, { COMPUTED_IMPORTS } from '../eslint.config.mjs';
import { FEATURES } from '../apps/petstore/src/features';

/**
 * The architecture's rules live in .dependency-cruiser.cjs and run in
 * `npm run lint` over the real tree. Here they run over a deliberately broken
 * tree, so that a rule that stopped firing (a typo in a pattern, an import
 * form it misses) fails a test instead of passing everything silently.
 */
const ROOT = resolve(__dirname, '..');
const FIXTURE = resolve(__dirname, 'fixtures/architecture');

interface Cruise {
  summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> };
}

function cruise(folder: string, ...paths: string[]): Cruise {
  const output = execFileSync(
    process.execPath,
    [
      resolve(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs'),
      '--config',
      resolve(ROOT, '.dependency-cruiser.cjs'),
      '--output-type',
      'json',
      ...paths,
    ],
    { cwd: folder, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  return JSON.parse(output) as Cruise;
}

describe('architecture rules', () => {
  const violations = cruise(FIXTURE, 'libs', 'apps')
    .summary.violations.map(
      ({ rule, from, to }) =>
        `${rule.name}: ${from} -> ${to.replace(/^.*\bnode_modules\/((@[^/]+\/)?[^/]+).*$/, '$1')}`,
    )
    .sort();

  it('fire on every broken import of the fixture, however it is written, and on nothing else', () => {
    expect(violations).toEqual([
      'application-uses-only-its-domain: libs/shop/src/application/uses-framework.ts -> @nestjs/common',
      'apps-use-module-indexes: apps/web/src/main.ts -> libs/shop/src/domain/thing.ts',
      'domain-is-plain-typescript: libs/shop/src/domain/double-quoted.ts -> typeorm',
      'domain-is-plain-typescript: libs/shop/src/domain/dynamic-import.ts -> @nestjs/common',
      'domain-is-plain-typescript: libs/shop/src/domain/required.ts -> class-validator',
      'domain-is-plain-typescript: libs/shop/src/domain/type-only.ts -> libs/shop/src/infrastructure/thing.record.ts',
      'http-does-not-reach-infrastructure: libs/shop/src/http/things.controller.ts -> libs/shop/src/infrastructure/thing.record.ts',
      'imports-resolve: libs/other/src/deep-alias.ts -> @app/shop/domain/thing',
      'infrastructure-does-not-reach-http: libs/shop/src/infrastructure/thing.record.ts -> libs/shop/src/http/thing.dto.ts',
      'modules-meet-through-their-index: libs/other/src/reaches-in.ts -> libs/shop/src/domain/thing.ts',
      'modules-use-only-what-they-declare: libs/ring-b/src/index.ts -> libs/ring-a/src/index.ts',
      'modules-use-only-what-they-declare: libs/shop/src/undeclared.ts -> libs/other/src/index.ts',
      'no-cycles-between-modules: libs/ring-a/src/index.ts -> libs/ring-b/src/index.ts',
      'platform-knows-no-feature: libs/platform/src/knows-a-feature.ts -> libs/shop/src/index.ts',
      'platform-plain-entries-are-plain-typescript: libs/platform/src/errors/app-error.ts -> @nestjs/common',
      'platform-plain-entries-are-plain-typescript: libs/platform/src/ports/unit-of-work.ts -> @nestjs/common',
    ]);
  });

  it('have a fixture file for every rule they define', () => {
    const config = readFileSync(resolve(ROOT, '.dependency-cruiser.cjs'), 'utf8');
    const rules = [...config.matchAll(/name: '([a-z-]+)'/g)].map((match) => match[1]);
    expect(new Set(violations.map((line) => line.split(':')[0]))).toEqual(new Set(rules));
  });
});

describe('computed imports', () => {
  it('are refused by ESLint, which the cruise cannot follow', () => {
    const file = resolve(FIXTURE, 'libs/shop/src/domain/computed-import.ts');
    const messages = new Linter({ configType: 'flat' }).verify(readFileSync(file, 'utf8'), [
      {
        languageOptions: { parser: tseslint.parser },
        rules: { 'no-restricted-syntax': ['error', ...COMPUTED_IMPORTS] },
      },
    ]);
    expect(messages.map(({ line, message }) => `${line}: ${message}`)).toEqual([
      '3: Import a module by a path written out: the layer rules cannot follow a computed one.',
      '4: Require a module by a path written out: the layer rules cannot follow a computed one.',
    ]);
  });

  it('are refused in the whole tree by the lint gate', () => {
    const rule = (config as Array<{ rules?: Record<string, unknown> }>).find(
      (entry) => entry.rules?.['no-restricted-syntax'],
    );
    expect(rule?.rules?.['no-restricted-syntax']).toEqual(['error', ...COMPUTED_IMPORTS]);
  });
});

describe('the feature registry', () => {
  it('lists every module under libs/ but the platform, each by its folder name', () => {
    const folders = readdirSync(resolve(ROOT, 'libs'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'platform')
      .map((entry) => entry.name);
    expect(FEATURES.map((feature) => feature.name).sort()).toEqual(folders.sort());
  });

  it('gives each module its own error codes', () => {
    const codes = FEATURES.flatMap((feature) => feature.errorCodes);
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
