import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The dependency rules of docs/architecture, checked on the source: a broken
 * rule fails here with the file and the import, and there is no exemption list.
 */
const ROOT = resolve(__dirname, '..');
const FRAMEWORKS = /^(@nestjs\/|typeorm|class-validator|class-transformer|fastify|pg|sqlite3)/;

interface SourceFile {
  path: string; // relative to the repository root
  imports: string[];
}

function sources(folder: string): SourceFile[] {
  const out: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
        const text = readFileSync(full, 'utf8');
        const imports = [...text.matchAll(/(?:from|import)\s+'([^']+)'|require\('([^']+)'\)/g)].map((m) => m[1] ?? m[2]);
        out.push({ path: relative(ROOT, full), imports });
      }
    }
  };
  walk(join(ROOT, folder));
  return out;
}

/** Where a relative import lands, relative to the repository root. */
const target = (file: SourceFile, specifier: string) => relative(ROOT, resolve(ROOT, dirname(file.path), specifier));
const violations = (files: SourceFile[], broken: (file: SourceFile, specifier: string) => boolean) =>
  files.flatMap((file) => file.imports.filter((specifier) => broken(file, specifier)).map((specifier) => `${file.path} imports ${specifier}`));

const libs = sources('libs');
const features = readdirSync(join(ROOT, 'libs'));

describe('architecture', () => {
  it('finds the source it checks', () => {
    expect(features.sort()).toEqual(['auth', 'pets', 'platform']);
    expect(libs.filter((file) => file.path.includes('/domain/')).length).toBeGreaterThanOrEqual(4);
  });

  it('keeps every domain free of frameworks and of the outer layers', () => {
    const domain = libs.filter((file) => file.path.includes('/src/domain/'));
    expect(
      violations(domain, (file, specifier) =>
        specifier.startsWith('.') ? !target(file, specifier).includes('/src/domain') : specifier !== '@app/platform/errors',
      ),
    ).toEqual([]);
  });

  it('keeps the error entry point that domains import framework-free', () => {
    const errors = libs.filter((file) => file.path.startsWith('libs/platform/src/errors/') && !file.path.includes('.filter.'));
    const reachable = sources('libs/platform/src/errors').filter((file) =>
      ['index.ts', 'app-error.ts'].some((name) => file.path.endsWith(`/errors/${name}`)),
    );
    expect(errors.length).toBeGreaterThan(0);
    expect(violations(reachable, (file, specifier) => !specifier.startsWith('./'))).toEqual([]);
  });

  it('keeps application services away from infrastructure, HTTP and the ORM', () => {
    const application = libs.filter((file) => file.path.includes('/src/application/'));
    expect(
      violations(application, (file, specifier) =>
        specifier.startsWith('.')
          ? /\/src\/(infrastructure|http)\b/.test(target(file, specifier))
          : FRAMEWORKS.test(specifier) && specifier !== '@nestjs/common',
      ),
    ).toEqual([]);
  });

  it('keeps infrastructure independent of HTTP', () => {
    const infrastructure = libs.filter((file) => file.path.includes('/src/infrastructure/'));
    expect(violations(infrastructure, (file, specifier) => specifier.startsWith('.') && target(file, specifier).includes('/src/http'))).toEqual([]);
  });

  it('lets modules meet only through their index', () => {
    expect(
      violations(libs, (file, specifier) => {
        const own = file.path.split('/')[1];
        if (specifier.startsWith('.')) return !target(file, specifier).startsWith(`libs/${own}/`);
        return specifier.startsWith('@app/') && !['@app/platform', '@app/platform/errors', '@app/auth', '@app/pets'].includes(specifier);
      }),
    ).toEqual([]);
  });

  it('keeps the platform ignorant of every feature module', () => {
    const platform = libs.filter((file) => file.path.startsWith('libs/platform/'));
    expect(violations(platform, (_file, specifier) => /^@app\/(?!platform)/.test(specifier))).toEqual([]);
  });

  it('reads process.env in the config module only', () => {
    const offenders = [...libs, ...sources('apps')]
      .filter((file) => readFileSync(join(ROOT, file.path), 'utf8').includes('process.env'))
      .map((file) => file.path);
    expect(offenders).toEqual(['libs/platform/src/config/read-environment.ts']);
  });
});
