import { expect } from 'vitest';
import { ConfigError } from '@app/platform';

/** Expects `attempt` to throw the ConfigError of `variable`, whose message starts with its name. */
export function expectRefusalNaming(attempt: () => unknown, variable: string): void {
  expect(attempt).toThrow(ConfigError);
  expect(attempt).toThrow(
    expect.objectContaining({ variable, message: expect.stringMatching(new RegExp(`^${variable} `)) }),
  );
}
