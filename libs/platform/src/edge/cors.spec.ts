import { describe, expect, it } from 'vitest';
import { expectRefusalNaming } from '@test/support/config-errors';
import { Settings } from '../config/settings';
import { CorsSettings } from './cors';

const of = (env: Record<string, string>) => CorsSettings.of(new Settings(env));

describe('CorsSettings', () => {
  it('is off by default', () => {
    expect({ ...of({}) }).toEqual({ origins: [] });
  });

  it('reads a list of origins, or * alone', () => {
    expect({ ...of({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }) }).toEqual({
      origins: ['https://app.example.com', 'http://localhost:5173'],
    });
    expect({ ...of({ CORS_ORIGINS: '*' }) }).toEqual({ origins: ['*'] });
  });

  it.each([
    [{ CORS_ORIGINS: 'https://app.example.com/path' }],
    [{ CORS_ORIGINS: '*,https://app.example.com' }],
    [{ CORS_ORIGINS: 'app.example.com' }],
  ])('refuses %j, naming CORS_ORIGINS', (env) => expectRefusalNaming(() => of(env), 'CORS_ORIGINS'));
});
