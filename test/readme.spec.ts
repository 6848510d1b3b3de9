import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PLATFORM_ERROR_CODES } from '@app/platform';
import { describe, expect, it } from 'vitest';
import { FEATURES } from '../apps/petstore/src/features';

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
  it('documents every error code the service can produce, and no other', () => {
    const codes = [...Object.values(PLATFORM_ERROR_CODES), ...FEATURES.flatMap((feature) => feature.errorCodes)];
    const documented = [...catalogue(readme), ...FEATURES.flatMap((feature) => catalogue(moduleReadme(feature.name)))];
    expect(FEATURES.map((feature) => feature.name)).toEqual(expect.arrayContaining(['auth', 'pets']));
    expect([...documented].sort()).toEqual([...codes].sort());
  });

  it('lists in its configuration table every variable of .env.example', () => {
    const variables = [...new Set([...envExample.matchAll(/^#? ?([A-Z_]+)=/gm)].map((match) => match[1]))];
    const documented = [...readme.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((match) => match[1]);
    expect(variables.length).toBeGreaterThan(5);
    expect([...documented].sort()).toEqual([...variables].sort());
  });

  it('states the two set-up commands', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test ');
  });
});
