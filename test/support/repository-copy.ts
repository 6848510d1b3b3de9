import { chmodSync, cpSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnChild } from './children';
import { scaled } from './wait-for';

/** This repository's root. */
export const ROOT = resolve(__dirname, '../..');
/** What a copy of the repository leaves out: installed, built or generated, never a source. */
export const NOT_COPIED = new Set(['node_modules', 'dist', '.git', 'data', 'coverage', '.work']);
/** The longest a command in a copy may run: the whole fast suite, about four minutes beside two busy loops. */
export const COMMAND_BOUND_MS = scaled(900_000);

/**
 * A copy of this repository's sources in a new temporary folder, on this repository's installed packages: where a
 * suite runs the generator, builds, and runs what it built, touching nothing of the checkout.
 */
export function copyRepository(prefix: string): string {
  const copy = mkdtempSync(join(tmpdir(), prefix));
  // Readable by all, as a checkout is: a suite runs the service as another user (test/storage-faults.e2e-spec.ts).
  chmodSync(copy, 0o755);
  cpSync(ROOT, copy, { recursive: true, filter: (source) => !NOT_COPIED.has(source.split('/').pop()!) });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  return copy;
}

/**
 * A command run to its end, asynchronously: a synchronous child would hold the
 * test worker's event loop for the whole lint gate, long enough for vitest's
 * calls between worker and runner to time out on a loaded machine.
 */
export function runIn(
  cwd: string,
  command: string,
  ...args: string[]
): Promise<{ status: number | null; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawnChild(command, args, { cwd, env: { ...process.env, CI: 'true' }, timeout: COMMAND_BOUND_MS });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolvePromise({ status, output }));
  });
}

/**
 * A copy of this repository with the modules `npm run generate:module` writes for each of `modules` (its arguments),
 * `edit` then applied to the copy, and built: the copy's folder, and its built service to run. Fails the test naming
 * the command that failed.
 */
export async function buildWithGenerated(
  prefix: string,
  modules: string[][],
  edit: (copy: string) => void = () => undefined,
): Promise<{ copy: string; main: string }> {
  const copy = copyRepository(prefix);
  for (const args of modules) {
    const generated = await runIn(copy, 'npm', 'run', '-s', 'generate:module', '--', ...args);
    if (generated.status !== 0) throw new Error(`generate:module ${args.join(' ')} failed:\n${generated.output}`);
  }
  edit(copy);
  const built = await runIn(copy, 'npm', 'run', '-s', 'build');
  if (built.status !== 0) throw new Error(`the build failed:\n${built.output}`);
  return { copy, main: join(copy, 'dist/apps/petstore/src/main.js') };
}
