import { execFile, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { spawnChild } from './children';
import { scaled, waitFor } from './wait-for';

export const MAIN_JS = resolve(__dirname, '../../dist/apps/petstore/src/main.js');

/**
 * A test file that imports this module runs the built service: before its
 * tests, the service is built if a source is newer than the build (a file
 * that never starts it never waits for a build). Asynchronously: a loaded
 * machine's build would otherwise block the worker's calls to vitest.
 */
beforeAll(async () => {
  const build = promisify(execFile)(process.execPath, [resolve(__dirname, '../../scripts/build-if-stale.mjs')]);
  build.child.stderr?.pipe(process.stderr);
  await build;
}, scaled(300_000));

/**
 * For a `describe` block of tests that run the built service: each test gets
 * a fresh folder and the environment of a SQLite database in it accepting
 * `apiKey`; `start()` starts the service on it (with extra settings), and
 * whatever a test started is killed after it, and the folder removed.
 */
export function servicePerTest(apiKey: string) {
  let folder = '';
  let env: Record<string, string> = {};
  const running: ServiceProcess[] = [];
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'petstore-service-'));
    env = { API_KEYS: apiKey, DATABASE_URL: `sqlite:${join(folder, 'data', 'petstore.sqlite')}` };
  });
  afterEach(async () => {
    for (const service of running.splice(0)) {
      service.child.kill('SIGKILL');
      await service.exited;
    }
    rmSync(folder, { recursive: true, force: true });
  });
  return {
    folder: () => folder,
    env: () => env,
    async start(extra: Record<string, string> = {}): Promise<ServiceProcess> {
      const service = await startService({ ...env, ...extra });
      running.push(service);
      return service;
    },
  };
}

/** The built service running as a separate process, as `npm run start:prod` runs it. */
export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
}

/**
 * Starts the service and waits for its "listening" line (it listens on an
 * ephemeral port). A service that does not start within `timeoutMs` is killed
 * before the promise rejects: no failed start leaves a process behind.
 */
export async function startService(
  env: Record<string, string>,
  timeoutMs = scaled(20_000),
  main = MAIN_JS,
): Promise<ServiceProcess> {
  const { child, output, exited } = runService({ PORT: '0', ...env }, undefined, main);
  let timedOut = false;
  const baseUrl = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const check = () => {
      const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(output());
      if (match) {
        clearTimeout(timer);
        resolvePromise(match[1]);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      const why = timedOut ? `did not listen within ${timeoutMs} ms (killed)` : `exited (${code}) before listening`;
      reject(new Error(`service ${why}:\n${output()}`));
    });
  });
  return { child, baseUrl, output, exited };
}

/**
 * Runs the built service without waiting for anything (as another user with `as`, when the tests run as root; the
 * build of a copy of the repository with `main`).
 */
export function runService(env: Record<string, string>, as?: { uid: number; gid: number }, main = MAIN_JS) {
  const child = spawnChild(process.execPath, [main], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', HOST: '127.0.0.1', ...env },
    ...as,
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | string>((resolvePromise) =>
    child.on('exit', (code, signal) => resolvePromise(code ?? signal ?? 'unknown')),
  );
  return { child, output: () => text, exited };
}

/** The lines a service wrote, each parsed as the JSON it must be (a line that is not JSON fails the test). */
export function logLinesOf(output: string): Array<Record<string, any>> {
  return output
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, any>);
}

/** The process's resident memory now (`VmRSS`) or at its highest (`VmHWM`), in MB (Linux). */
export function memoryMb(service: ServiceProcess, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${service.child.pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${field}:`))!;
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePromise(port));
    });
  });
}

/** Waits until `/health/live` answers 200 (for runs that print no "listening" line). */
export async function waitUntilLive(baseUrl: string): Promise<void> {
  const live = () =>
    fetch(`${baseUrl}/health/live`).then(
      (response) => response.ok,
      () => false,
    );
  await waitFor(live, `${baseUrl} to be live`, 15_000);
}

export const KEYS_JS = resolve(__dirname, '../../dist/apps/petstore/src/keys.js');
export const BACKUP_JS = resolve(__dirname, '../../dist/apps/petstore/src/backup.js');

/** `npm run keys -- <args>` as the built CLI runs it (without the rebuild `npm run keys` does first). */
export const runKeysCli = (args: readonly string[], env: Record<string, string>) => runBuiltCli(KEYS_JS, args, env);

/** `npm run backup -- <args>` as the built CLI runs it. */
export const runBackupCli = (args: readonly string[], env: Record<string, string>) => runBuiltCli(BACKUP_JS, args, env);

/** One of the service's built command-line tools, to its end: exit status and what it printed. */
function runBuiltCli(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise) => {
    const child = spawnChild(process.execPath, [script, ...args], {
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolvePromise({ status, stdout, stderr }));
  });
}
