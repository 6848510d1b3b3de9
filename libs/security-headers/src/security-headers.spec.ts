import { describe, expect, it } from 'vitest';
import { expectRefusalNaming } from '@test/support/config-errors';
import { AppConfig } from '@app/platform';
import { securityHeadersOf } from './security-headers';
import { SecurityHeadersModule } from './security-headers.module';

describe('security headers', () => {
  it("add HSTS to the API's set (test/operations.e2e-spec.ts) only when asked", () => {
    expect(securityHeadersOf(true).api).toEqual({
      ...securityHeadersOf(false).api,
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
    });
    expect(securityHeadersOf(false).api).not.toHaveProperty('strict-transport-security');
  });

  it("give the documentation page helmet's set (test/operations.e2e-spec.ts), with HSTS only when asked", () => {
    expect(securityHeadersOf(false).docs).not.toHaveProperty('strict-transport-security');
    expect(securityHeadersOf(true).docs['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('are provided in production with HSTS, and not at all with SECURITY_HEADERS=off', () => {
    const provided = (env: Record<string, string>) =>
      SecurityHeadersModule.forRoot(AppConfig.fromEnvironment(env)).providers ?? [];
    expect(provided({ NODE_ENV: 'production' })).toEqual([
      expect.objectContaining({ useValue: securityHeadersOf(true) }),
    ]);
    expect(provided({ SECURITY_HEADERS: 'off' })).toEqual([]);
  });

  it('refuses SECURITY_HEADERS other than on or off, naming it', () => {
    expectRefusalNaming(
      () => SecurityHeadersModule.forRoot(AppConfig.fromEnvironment({ SECURITY_HEADERS: 'no' })),
      'SECURITY_HEADERS',
    );
  });
});
