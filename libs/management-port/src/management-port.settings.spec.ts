import { describe, expect, it } from 'vitest';
import { expectRefusalNaming } from '@test/support/config-errors';
import { AppConfig } from '@app/platform';
import { ManagementPortSettings } from './management-port.settings';

const of = (env: Record<string, string>) => ManagementPortSettings.of(AppConfig.fromEnvironment(env));

describe('ManagementPortSettings', () => {
  it('is off by default', () => {
    expect(of({})).toBeUndefined();
  });

  it('reads MANAGEMENT_PORT, on HOST unless MANAGEMENT_HOST is set', () => {
    expect({ ...of({ HOST: '0.0.0.0', PORT: '8080', MANAGEMENT_PORT: '9090' }) }).toEqual({
      host: '0.0.0.0',
      port: 9090,
    });
    expect({ ...of({ MANAGEMENT_PORT: '0', MANAGEMENT_HOST: '127.0.0.2' }) }).toEqual({ host: '127.0.0.2', port: 0 });
  });

  it.each([
    [{ MANAGEMENT_PORT: '90a' }, 'MANAGEMENT_PORT'],
    [{ PORT: '8080', MANAGEMENT_PORT: '8080' }, 'MANAGEMENT_PORT'],
    [{ MANAGEMENT_HOST: '10.0.0.5' }, 'MANAGEMENT_HOST'],
  ])('refuses %j, naming %s', (env, variable) => expectRefusalNaming(() => of(env), variable));
});
