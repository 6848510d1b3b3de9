import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnChild } from './children';
import { freePort } from './service-process';
import { waitFor } from './wait-for';

/** The NATS server binary the machine runs (Debian's `nats-server`), if any. */
export const NATS_SERVER = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find(
  (path) => existsSync(path),
);

export interface NatsServerOptions {
  user?: string;
  password?: string;
  /** The largest message the server takes, in bytes. */
  maxPayload?: number;
}

/**
 * A NATS server of the test's own, with JetStream, on a free port of 127.0.0.1 and a store in a folder of its own:
 * stopped and started again on the same port (its store kept, or wiped), and stopped for good by `close()`.
 */
export class NatsServer {
  private child?: ReturnType<typeof spawnChild>;

  private constructor(
    readonly port: number,
    private readonly folder: string,
    private readonly options: NatsServerOptions,
  ) {}

  static async start(options: NatsServerOptions = {}): Promise<NatsServer> {
    const server = new NatsServer(await freePort(), mkdtempSync(join(tmpdir(), 'petstore-nats-')), options);
    await server.resume();
    return server;
  }

  /** The URL a client without credentials connects to. */
  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async resume(): Promise<void> {
    const config = join(this.folder, 'nats.conf');
    const lines = [`listen: 127.0.0.1:${this.port}`, `jetstream { store_dir: "${join(this.folder, 'store')}" }`];
    if (this.options.maxPayload !== undefined) lines.push(`max_payload: ${this.options.maxPayload}`);
    if (this.options.user !== undefined) {
      lines.push(`authorization { user: "${this.options.user}", password: "${this.options.password}" }`);
    }
    writeFileSync(config, `${lines.join('\n')}\n`);
    const child = spawnChild(NATS_SERVER!, ['-c', config]);
    this.child = child;
    let output = '';
    child.stderr!.on('data', (chunk) => (output += String(chunk)));
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`nats-server exited: ${output}`);
      return listening(this.port);
    }, 'the NATS server to listen');
  }

  /** Stops the server (SIGKILL: as a crash would); `wipe` removes its store too, as a new machine would have none. */
  async stop({ wipe = false } = {}): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    if (wipe) rmSync(join(this.folder, 'store'), { recursive: true, force: true });
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.folder, { recursive: true, force: true });
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
