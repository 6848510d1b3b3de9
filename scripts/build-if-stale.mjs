// Builds the service (nest build petstore) unless its output is newer than every file it is built from: a test
// file or `npm run keys` then starts at once instead of spending ten seconds rebuilding what is current.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const OUTPUT = join(ROOT, 'dist/apps/petstore/src/main.js');
/** What the build reads: the sources (a folder's own time changes when a file in it is added or removed) and its settings. */
const INPUTS = ['apps', 'libs', 'tsconfig.json', 'nest-cli.json', 'package.json', 'package-lock.json'];

/** The newest modification time under `path`. */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

function builtAt() {
  try {
    return statSync(OUTPUT).mtimeMs;
  } catch {
    return 0;
  }
}

if (builtAt() <= Math.max(...INPUTS.map((input) => newest(join(ROOT, input))))) {
  execFileSync('npx', ['nest', 'build', 'petstore'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
}
