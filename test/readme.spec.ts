import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { PLATFORM_ERROR_CODES } from '@app/platform';
import { describe, expect, it } from 'vitest';
import { configNamespaces, libraryErrorCodes } from './support/service-modules';

const readme = readFileSync(resolve(__dirname, '../README.md'), 'utf8');
const envExample = readFileSync(resolve(__dirname, '../.env.example'), 'utf8');

/** The codes of a README's error table (rows like `| 404 | \`thing_not_found\` | ... |`). */
const catalogue = (text: string) => [...text.matchAll(/^\| \d{3} \| `([a-z_]+)` \|/gm)].map((match) => match[1]);

/** A feature module's own README, where a module that is not part of the shipped service lists its codes. */
const moduleReadme = (name: string) => {
  const path = resolve(__dirname, '../libs', name, 'README.md');
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
};

describe('README', () => {
  it('documents every error code the service can produce, and no other', async () => {
    const libraries = await libraryErrorCodes();
    // The platform's PLATFORM_ERROR_CODES among them.
    const codes = [...libraries.values()].flat();
    expect(codes).toEqual(expect.arrayContaining(Object.values(PLATFORM_ERROR_CODES)));
    const documented = [
      ...catalogue(readme),
      ...[...libraries.keys()].flatMap((name) => catalogue(moduleReadme(name))),
    ];
    expect([...libraries.keys()]).toEqual(expect.arrayContaining(['auth', 'database', 'pets']));
    expect([...documented].sort()).toEqual([...codes].sort());
  });

  it('lists in its configuration table every variable of .env.example', () => {
    const variables = [...new Set([...envExample.matchAll(/^#? ?([A-Z_]+)=/gm)].map((match) => match[1]))];
    const documented = [...readme.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((match) => match[1]);
    expect(variables.length).toBeGreaterThan(5);
    expect([...documented].sort()).toEqual([...variables].sort());
  });

  it('has in .env.example every variable the service reads, and no other', async () => {
    // Every setting is read through Settings: an environment that records what it is asked sees them all.
    const read = new Set<string>();
    const env = new Proxy({} as Record<string, string | undefined>, {
      get: (_target, name) => {
        if (typeof name === 'string') read.add(name);
        return name === 'DATABASE_URL' ? 'postgres://petstore@db.internal:5432/petstore' : undefined;
      },
    });
    // Each module's namespace of Nest's configuration, read as the application starts reads it.
    const namespaces = await configNamespaces();
    expect(namespaces.length).toBeGreaterThan(5);
    const own = process.env;
    process.env = env;
    try {
      for (const namespace of namespaces) namespace();
    } finally {
      process.env = own;
    }
    const variables = [...new Set([...envExample.matchAll(/^#? ?([A-Z_]+)=/gm)].map((match) => match[1]))];
    expect([...read].sort()).toEqual([...variables].sort());
  });

  it('states the two set-up commands', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test ');
  });
});

const ROOT = resolve(__dirname, '..');

/** Every Markdown file of the repository (not its dependencies, builds or fixtures). */
function markdownFiles(folder = ROOT): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (['node_modules', 'dist', '.git', 'coverage', '.work', 'fixtures'].includes(name)) return [];
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** The text outside fenced code blocks, where links and headings live. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');

/** The anchors GitHub gives a file's headings. */
const anchorsOf = (text: string) =>
  prose(text)
    .split('\n')
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) =>
      line
        .replace(/^#+ /, '')
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s_-]/gu, '')
        .replace(/\s/g, '-'),
    );

describe('the documentation', () => {
  const files = markdownFiles();

  it('links only to files and headings that exist in the repository', () => {
    const broken: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const [, target] of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:: not ours to check
        const [path, anchor] = target.split('#');
        const resolved = path ? resolve(dirname(file), path) : file;
        const where = `${relative(ROOT, file)} -> ${target}`;
        if (!resolved.startsWith(ROOT + '/') && resolved !== ROOT) broken.push(`${where} (outside the repository)`);
        else if (!existsSync(resolved)) broken.push(`${where} (no such file)`);
        else if (anchor && !anchorsOf(readFileSync(resolved, 'utf8')).includes(anchor))
          broken.push(`${where} (no such heading)`);
      }
    }
    expect(files.length).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });

  it('keeps the README to a page: at most 300 lines, opening with its contents', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    const contents = [...readme.matchAll(/^- \[[^\]]+\]\(#([a-z-]+)\)$/gm)].map((match) => match[1]);
    expect(contents).toEqual(anchorsOf(readme).filter((anchor) => contents.includes(anchor)));
    expect(contents).toEqual(
      expect.arrayContaining(['set-up', 'a-session-with-curl', 'errors', 'configuration', 'architecture']),
    );
  });
});
