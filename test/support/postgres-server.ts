import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { childrenOf, spawnChild } from './children';
import { freePort } from './service-process';
import { waitFor } from './wait-for';

/**
 * The folder of PostgreSQL's server programs (initdb, postgres): `PETSTORE_TEST_POSTGRES_BIN`, else `pg_config
 * --bindir`, else the newest of Debian's /usr/lib/postgresql/<version>/bin.
 */
const POSTGRES_BIN = ((): string | undefined => {
  const candidates = [process.env.PETSTORE_TEST_POSTGRES_BIN];
  const pgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (pgConfig.status === 0) candidates.push(pgConfig.stdout.trim());
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => `/usr/lib/postgresql/${version}/bin`));
  }
  return candidates.find(
    (folder) => folder && existsSync(join(folder, 'initdb')) && existsSync(join(folder, 'postgres')),
  );
})();

/**
 * PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user of the distribution's package (or
 * `nobody`); as anyone else, as that user.
 */
const SERVER_USER = ((): { uid: number; gid: number } | undefined => {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return { uid: 65534, gid: 65534 };
  }
})();

/** Why a suite that needs a PostgreSQL server of its own is skipped here, if it is. */
export const OWN_POSTGRES_SKIP_REASON = POSTGRES_BIN
  ? undefined
  : "PostgreSQL's server programs (initdb, postgres) were not found: set PETSTORE_TEST_POSTGRES_BIN to their folder";

/** A PostgreSQL server of the test's own, on a free port, to pause and resume at will. */
export interface OwnPostgres {
  /** Its `postgres` database, as a `DATABASE_URL`. */
  url: string;
  /** SIGSTOP to the server and every backend (Linux: found through /proc): statements stall, connections stay open. */
  pause(): void;
  resume(): void;
  /** Stops it and removes its folder. */
  remove(): Promise<void>;
}

export async function ownPostgres(): Promise<OwnPostgres> {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-postgres-'));
  const data = join(folder, 'data');
  if (SERVER_USER) chownSync(folder, SERVER_USER.uid, SERVER_USER.gid);
  let server: ChildProcess | undefined;
  const remove = async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      // Its backends too: one paused would otherwise stay, stopped, after the server.
      for (const pid of [server.pid!, ...childrenOf(server.pid!)]) signal(pid, 'SIGKILL');
      for (const pid of [server.pid!, ...childrenOf(server.pid!)]) signal(pid, 'SIGCONT');
      await exited;
    }
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    const initdb = spawnSync(
      join(POSTGRES_BIN!, 'initdb'),
      ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync'],
      { encoding: 'utf8', ...SERVER_USER },
    );
    if (initdb.status !== 0) throw new Error(`initdb failed:\n${initdb.stdout}${initdb.stderr}`);
    const port = await freePort();
    // Its own socket folder: the machine's /var/run/postgresql may not be writable by the server's user.
    server = spawnChild(
      join(POSTGRES_BIN!, 'postgres'),
      ['-D', data, '-p', String(port), '-k', folder, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off'],
      { ...SERVER_USER },
    );
    let output = '';
    server.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    const running = server;
    await waitFor(async () => {
      if (running.exitCode !== null) throw new Error(`postgres exited:\n${output}`);
      return answers(url);
    }, `a PostgreSQL server of the test's own on port ${port}`);
    return {
      url,
      pause: () => [running.pid!, ...childrenOf(running.pid!)].forEach((pid) => signal(pid, 'SIGSTOP')),
      resume: () => [...childrenOf(running.pid!), running.pid!].forEach((pid) => signal(pid, 'SIGCONT')),
      remove,
    };
  } catch (error) {
    await remove();
    throw error;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

async function answers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
