import { describe, expect, it } from 'vitest';
import { expectRefusalNaming } from '@test/support/config-errors';
import { AppConfig } from '../config/app-config';
import { ManagementPort } from './management-port';

const of = (env: Record<string, string>) => ManagementPort.of(AppConfig.fromEnvironment(env));
/** Where it listens. */
const addressOf = (env: Record<string, string>) => {
  const port = of(env);
  return port && { host: port.host, port: port.port };
};

describe('ManagementPort.of', () => {
  it('is off by default', () => {
    expect(of({})).toBeUndefined();
  });

  it('reads MANAGEMENT_PORT, on HOST unless MANAGEMENT_HOST is set', () => {
    expect(addressOf({ HOST: '0.0.0.0', PORT: '8080', MANAGEMENT_PORT: '9090' })).toEqual({
      host: '0.0.0.0',
      port: 9090,
    });
    expect(addressOf({ MANAGEMENT_PORT: '0', MANAGEMENT_HOST: '127.0.0.2' })).toEqual({ host: '127.0.0.2', port: 0 });
  });

  it.each([
    [{ MANAGEMENT_PORT: '90a' }, 'MANAGEMENT_PORT'],
    [{ PORT: '8080', MANAGEMENT_PORT: '8080' }, 'MANAGEMENT_PORT'],
    [{ MANAGEMENT_HOST: '10.0.0.5' }, 'MANAGEMENT_HOST'],
  ])('refuses %j, naming %s', (env, variable) => expectRefusalNaming(() => of(env), variable));
});
