import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnChild } from './children';
import { scaled } from './wait-for';

/** The Redis server the fleet suites share rate limits through; the Redis suites are skipped without it. */
export const REDIS_TEST_URL = process.env.PETSTORE_TEST_REDIS_URL;
export const REDIS_SKIP_REASON = REDIS_TEST_URL ? undefined : 'set PETSTORE_TEST_REDIS_URL to run it';

/** `redis-server` on the PATH, for the suites that start and stop a server of their own. */
export const REDIS_SERVER = spawnSync('redis-server', ['--version']).status === 0 ? 'redis-server' : undefined;

/** A Redis server of the test's own on `port` (nothing kept on disk), to stop and start at will. */
export interface OwnRedis {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  remove(): Promise<void>;
}

export async function ownRedis(port: number): Promise<OwnRedis> {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-redis-'));
  let child: ChildProcess | undefined;
  const server: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawnChild(REDIS_SERVER!, [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        folder,
      ]);
      let output = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), scaled(10_000));
        child!.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Ready to accept connections')) {
            clearTimeout(timer);
            resolve();
          }
        });
        child!.on('exit', () => reject(new Error(`redis-server exited:\n${output}`)));
      });
    },
    async stop() {
      const running = child;
      child = undefined;
      // Already gone, by its own exit or by a signal (a signal leaves exitCode null).
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.on('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
    async remove() {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}
