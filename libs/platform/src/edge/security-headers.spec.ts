import { describe, expect, it } from 'vitest';
import { expectRefusalNaming } from '@test/support/config-errors';
import { AppConfig } from '../config/app-config';
import { SecurityHeaders } from './security-headers';

describe('security headers', () => {
  it("add HSTS to the API's set (test/operations.e2e-spec.ts) only when asked", () => {
    expect(new SecurityHeaders(true).api).toEqual({
      ...new SecurityHeaders(false).api,
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
    });
    expect(new SecurityHeaders(false).api).not.toHaveProperty('strict-transport-security');
  });

  it("give the documentation page helmet's set (test/operations.e2e-spec.ts), with HSTS only when asked", () => {
    expect(new SecurityHeaders(false).docs).not.toHaveProperty('strict-transport-security');
    expect(new SecurityHeaders(true).docs['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('are sent in production with HSTS, and not at all with SECURITY_HEADERS=off', () => {
    const of = (env: Record<string, string>) => {
      const headers = SecurityHeaders.of(AppConfig.fromEnvironment(env));
      return headers && { api: headers.api, docs: headers.docs };
    };
    const { api, docs } = new SecurityHeaders(true);
    expect(of({ NODE_ENV: 'production' })).toEqual({ api, docs });
    expect(of({})?.api).toEqual(new SecurityHeaders(false).api);
    expect(of({ SECURITY_HEADERS: 'off' })).toBeUndefined();
  });

  it('refuses SECURITY_HEADERS other than on or off, naming it', () => {
    expectRefusalNaming(
      () => SecurityHeaders.of(AppConfig.fromEnvironment({ SECURITY_HEADERS: 'no' })),
      'SECURITY_HEADERS',
    );
  });
});
