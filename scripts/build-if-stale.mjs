// Builds the service (nest build petstore) unless its output is newer than every file it is built from: a test
// file or `npm run keys` then starts at once instead of spending ten seconds rebuilding what is current. Callers that
// run at once (two test workers) build once: the second waits for the first's lock, then finds the build current.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const OUTPUT = join(ROOT, 'dist/apps/petstore/src/main.js');
/** What the build reads: the sources (a folder's own time changes when a file in it is added or removed) and its settings. */
const INPUTS = ['apps', 'libs', 'tsconfig.json', 'nest-cli.json', 'package.json', 'package-lock.json'];
/** What the build does not read: tests and documentation beside the sources. */
const NOT_BUILT = /(\.spec\.ts|\.e2e-spec\.ts|\.md)$|^test$/;
const LOCK = join(ROOT, 'node_modules/.petstore-build-lock');
/** A lock older than this was left by a build that died: taken over. */
const STALE_LOCK_MS = 10 * 60_000;

/** The newest modification time under `path`. */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path)
    .filter((name) => !NOT_BUILT.test(name))
    .reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

function builtAt() {
  try {
    return statSync(OUTPUT).mtimeMs;
  } catch {
    return 0;
  }
}

const stale = () => builtAt() <= Math.max(...INPUTS.map((input) => newest(join(ROOT, input))));

function lock() {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(LOCK);
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (Date.now() - statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs > STALE_LOCK_MS)
        rmSync(LOCK, { force: true, recursive: true });
      Atomics.wait(pause, 0, 0, 200);
    }
  }
}

if (stale()) {
  lock();
  try {
    if (stale())
      execFileSync('npx', ['nest', 'build', 'petstore'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  } finally {
    rmSync(LOCK, { force: true, recursive: true });
  }
}
