import { availableParallelism, loadavg } from 'node:os';

/**
 * How much slower than a quiet machine this one runs: every deadline of the
 * tests is multiplied by it. `PETSTORE_TEST_TIME_SCALE` sets it; otherwise
 * vitest.config.ts works it out once when the run starts, from the load
 * average per core and the CPU share this process gets, and every test
 * process inherits the value.
 */
export function timeScale(): number {
  const set = Number(process.env.PETSTORE_TEST_TIME_SCALE);
  if (set >= 1) return set;
  const byLoad = 1 + loadavg()[0] / availableParallelism();
  const scale = Math.min(50, Math.max(1, byLoad, 1 / cpuShare()));
  process.env.PETSTORE_TEST_TIME_SCALE = scale.toFixed(2);
  return scale;
}

/**
 * The share of a core this process gets now: 200 ms of spinning, against the
 * CPU time it was given. The load average misses a run under `nice`, which
 * gets a sliver of a core beside busy processes of normal priority.
 */
function cpuShare(): number {
  const start = performance.now();
  const before = process.cpuUsage();
  while (performance.now() - start < 200);
  const { user, system } = process.cpuUsage(before);
  return Math.max(0.01, (user + system) / 1000 / (performance.now() - start));
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
