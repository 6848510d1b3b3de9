import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AUTH_ERROR_CODES } from '@app/auth';
import { PET_ERROR_CODES } from '@app/pets';
import { PLATFORM_ERROR_CODES } from '@app/platform';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(resolve(__dirname, '../README.md'), 'utf8');
const envExample = readFileSync(resolve(__dirname, '../.env.example'), 'utf8');

describe('README', () => {
  const documentedCodes = [...readme.matchAll(/^\| \d{3} \| `([a-z_]+)` \|/gm)].map((match) => match[1]);

  it('documents every error code the service can produce, and no other', () => {
    const codes = [
      ...Object.values(PLATFORM_ERROR_CODES),
      ...Object.values(AUTH_ERROR_CODES),
      ...Object.values(PET_ERROR_CODES),
    ];
    expect([...documentedCodes].sort()).toEqual([...codes].sort());
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
