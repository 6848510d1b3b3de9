/**
 * Resolves once `condition` holds, checking it every 20 ms; fails naming
 * `what` after `timeoutMs` (generous: a loaded machine is slow, not wrong).
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${timeoutMs} ms`);
    await new Promise((wait) => setTimeout(wait, 20));
  }
}
