import {
  spawn,
  type ChildProcessByStdio,
  type SpawnOptionsWithStdioTuple,
  type StdioNull,
  type StdioPipe,
} from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import type { Readable } from 'node:stream';

type Child = ChildProcessByStdio<null, Readable, Readable>;

/** One registry per test process, however many test files load this module in it. */
const REGISTRY = Symbol.for('petstore.test.children');

/**
 * Every process this test process started and that has not exited: killed,
 * with whatever it started in turn, when the test process exits, whatever
 * path a test took (a timeout, a failed start, a throw before its own
 * clean-up), so that none is left running.
 */
const children: Set<Child> = ((globalThis as { [REGISTRY]?: Set<Child> })[REGISTRY] ??= killedOnExit());

function killedOnExit(): Set<Child> {
  const set = new Set<Child>();
  process.on('exit', () => {
    for (const child of set) killGroup(child);
  });
  // A signal ends a process without its exit handlers: run them (vitest stops its workers with SIGTERM).
  for (const [signal, status] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)
    process.once(signal, () => process.exit(status));
  return set;
}

/**
 * On Linux, `setpriv --pdeathsig KILL` makes the kernel kill the child when
 * this process dies, even by SIGKILL, when no handler of ours can run.
 */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));

/** SIGKILL to the child's process group: npm, say, runs its scripts in children of its own. */
function killGroup(child: Child): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** `spawn`, with stdout and stderr piped, in a process group of its own, killed when this process exits. */
export function spawnChild(
  command: string,
  args: readonly string[],
  options: Omit<SpawnOptionsWithStdioTuple<StdioNull, StdioPipe, StdioPipe>, 'stdio' | 'detached'> = {},
): Child {
  const [file, argv] = SETPRIV ? [SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args]] : [command, args];
  const child = spawn(file, argv, { ...options, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** The processes whose parent is `pid`, read from /proc (a process in a session of its own is found too). */
export function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // The fourth field of /proc/PID/stat, after the command in parentheses, is the parent's pid.
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}
