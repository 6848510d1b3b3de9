import { availableParallelism, loadavg } from 'node:os';

/**
 * How much slower than a quiet machine this one runs: every deadline of the
 * tests is multiplied by it. `PETSTORE_TEST_TIME_SCALE` sets it (vitest.config.ts
 * sets it once, from the load average per core when the run starts, so that
 * every test process uses the same value).
 */
export function timeScale(): number {
  const set = Number(process.env.PETSTORE_TEST_TIME_SCALE);
  if (set >= 1) return set;
  return Math.min(5, Math.max(1, 1 + loadavg()[0] / availableParallelism()));
}

/** `ms` on this machine: a deadline, never a pause. */
export const scaled = (ms: number): number => Math.round(ms * timeScale());

/**
 * Resolves once `condition` holds, checking it every 20 ms; fails naming
 * `what` after `timeoutMs`, scaled (generous: a loaded machine is slow, not wrong).
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + scaled(timeoutMs);
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${scaled(timeoutMs)} ms`);
    await new Promise((wait) => setTimeout(wait, 20));
  }
}
