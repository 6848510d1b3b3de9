import { execFileSync, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { childrenOf, spawnChild } from './children';
import { waitFor } from './wait-for';

/**
 * Container images built and run without a daemon or a registry: Debian's buildah (`--isolation chroot`, the host's
 * network), and base images made here from debootstrap and the Node of this test run, standing in for the official
 * `node:24-bookworm` and `node:24-bookworm-slim` (README of the Dockerfile's first lines).
 */
const HAS = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

/** Why the container suites are skipped here, if they are. */
export const BUILDAH_SKIP_REASON = !HAS('buildah')
  ? "Debian's buildah is not installed (apt-get install -y buildah debootstrap; .ci/run does)"
  : !HAS('debootstrap')
    ? 'debootstrap is not installed (apt-get install -y debootstrap; .ci/run does)'
    : process.getuid?.() !== 0
      ? 'buildah here builds and runs images as root'
      : undefined;

/** The recipe's version: a change to the bases below makes new ones (the old stay cached until removed). */
const RECIPE = 'r1';
/** Node's own folder: its binary, and the headers native addons build against. */
const NODE_HOME = dirname(dirname(process.execPath));

export const LOCAL_BASES = {
  runtime: `localhost/petstore-test-runtime-base:node${process.versions.node}-${RECIPE}`,
  build: `localhost/petstore-test-build-base:node${process.versions.node}-${RECIPE}`,
};

function buildah(...args: string[]): string {
  return execFileSync('buildah', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim();
}

/**
 * A command to its end, asynchronously (debootstrap and apt take a minute: a synchronous child would hold the test
 * worker's event loop that long); fails with its output.
 */
function run(command: string, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawnChild(command, args);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (status) =>
      status === 0 ? resolve(output.trim()) : reject(new Error(`${command} ${args.join(' ')}: ${status}\n${output}`)),
    );
  });
}

function hasImage(name: string): boolean {
  return spawnSync('buildah', ['inspect', '--type', 'image', name], { stdio: 'ignore' }).status === 0;
}

/**
 * The two local bases, made once per machine (and Node version): Debian bookworm (minbase, with CA certificates),
 * this run's Node at /usr/local/bin and the `node` user (1000), as the official slim image has them; the build base
 * adds python3, make and g++, Node's headers and npm, the CA bundle this machine's tools trust (its registry's TLS),
 * and node-gyp told where the headers are (no download of them is reachable here).
 */
export async function ensureLocalBases(): Promise<{ made: boolean }> {
  if (hasImage(LOCAL_BASES.runtime) && hasImage(LOCAL_BASES.build)) return { made: false };
  const work = mkdtempSync(join(tmpdir(), 'petstore-bases-'));
  try {
    const rootfs = join(work, 'rootfs');
    await run(
      'debootstrap',
      '--variant=minbase',
      '--include=ca-certificates',
      'bookworm',
      rootfs,
      'http://deb.debian.org/debian',
    );
    rmSync(join(rootfs, 'var/cache/apt/archives'), { recursive: true, force: true });
    rmSync(join(rootfs, 'var/lib/apt/lists'), { recursive: true, force: true });
    const runtime = buildah('from', 'scratch');
    try {
      const root = buildah('mount', runtime);
      await run(
        'sh',
        '-c',
        `cp -a ${rootfs}/. ${root}/ && install -m 755 ${process.execPath} ${root}/usr/local/bin/node ` +
          `&& echo 'node:x:1000:1000::/home/node:/bin/sh' >> ${root}/etc/passwd && echo 'node:x:1000:' >> ${root}/etc/group ` +
          `&& mkdir -p ${root}/home/node ${root}/var/lib/apt/lists ${root}/var/cache/apt/archives/partial ` +
          `&& chown 1000:1000 ${root}/home/node`,
      );
      buildah('umount', runtime);
      buildah('config', '--env', 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', runtime);
      buildah('commit', '-q', runtime, LOCAL_BASES.runtime);
    } finally {
      buildah('rm', runtime);
    }
    const build = buildah('from', LOCAL_BASES.runtime);
    try {
      await run(
        'buildah',
        'run',
        '--isolation',
        'chroot',
        build,
        '--',
        'sh',
        '-c',
        'apt-get update -q && apt-get install -y -q --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*',
      );
      const root = buildah('mount', build);
      await run('cp', '-a', join(NODE_HOME, 'include/node'), join(root, 'usr/local/include/'));
      const npm = join(work, 'npm');
      await run(
        'sh',
        '-c',
        `mkdir -p ${npm} && cd ${npm} && npm pack --silent npm@$(npm --version) >/dev/null && tar xzf npm-*.tgz`,
      );
      cpSync(join(npm, 'package'), join(root, 'usr/local/lib/node_modules/npm'), { recursive: true });
      await run(
        'sh',
        '-c',
        `ln -s ../lib/node_modules/npm/bin/npm-cli.js ${root}/usr/local/bin/npm && ` +
          `ln -s ../lib/node_modules/npm/bin/npx-cli.js ${root}/usr/local/bin/npx`,
      );
      const certificates = process.env.NODE_EXTRA_CA_CERTS ?? '/etc/ssl/certs/ca-certificates.crt';
      if (existsSync(certificates)) copyFileSync(certificates, join(root, 'usr/local/share/host-ca-bundle.crt'));
      buildah('umount', build);
      buildah(
        'config',
        '--env',
        'NODE_EXTRA_CA_CERTS=/usr/local/share/host-ca-bundle.crt',
        '--env',
        // node-gyp's headers, in the form it reads under npm 11 (as .ci/run gives them).
        'npm_package_config_node_gyp_nodedir=/usr/local',
        build,
      );
      buildah('commit', '-q', build, LOCAL_BASES.build);
    } finally {
      buildah('rm', build);
    }
    return { made: true };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** `buildah bud` of the repository's Dockerfile on the local bases: how long it took, and its output. */
export async function buildImage(
  context: string,
  tag: string,
  buildArgs: Record<string, string>,
): Promise<{ status: number | null; output: string; seconds: number }> {
  const args = ['bud', '--layers', '--isolation', 'chroot', '-t', tag];
  for (const [name, value] of Object.entries({
    BUILD_BASE: LOCAL_BASES.build,
    RUNTIME_BASE: LOCAL_BASES.runtime,
    ...buildArgs,
  }))
    args.push('--build-arg', `${name}=${value}`);
  const started = performance.now();
  const child = spawnChild('buildah', [...args, context]);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { status, output, seconds: (performance.now() - started) / 1000 };
}

/** An image's configuration (OCI), its labels included, and its size: its layers' uncompressed bytes. */
export function imageOf(name: string): {
  config: {
    User?: string;
    Env?: string[];
    Entrypoint?: string[];
    Cmd?: string[];
    Volumes?: object;
    Labels?: Record<string, string>;
  };
  size: number;
} {
  const inspected = JSON.parse(buildah('inspect', '--type', 'image', name)) as {
    OCIv1: { config: never };
    Manifest: string;
  };
  const { layers } = JSON.parse(inspected.Manifest) as { layers: Array<{ size: number }> };
  return { config: inspected.OCIv1.config, size: layers.reduce((sum, layer) => sum + layer.size, 0) };
}

/** A working container of an image: run its entrypoint and command again and again, on the same volume. */
export class Container {
  private constructor(
    readonly name: string,
    private readonly command: string[],
  ) {}

  static from(image: string): Container {
    const { config } = imageOf(image);
    return new Container(buildah('from', image), [...(config.Entrypoint ?? []), ...(config.Cmd ?? [])]);
  }

  /**
   * Runs the image's entrypoint and command (buildah runs neither by itself), with `env`, on the host's network.
   * `firstProcess()` is the container's PID 1, found among the process's descendants as the first whose root is not
   * the host's.
   */
  run(env: Record<string, string>) {
    const args = ['run', '--isolation', 'chroot'];
    for (const [name, value] of Object.entries(env)) args.push('--env', `${name}=${value}`);
    const child = spawnChild('buildah', [...args, this.name, '--', ...this.command]);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | string>((resolve) =>
      child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
    );
    return {
      output: () => output,
      exited,
      firstProcess: () => firstContainedDescendant(child.pid!),
    };
  }

  /** One command in the container (its user, its environment), to its end: what it printed. */
  exec(...command: string[]): string {
    return buildah('run', '--isolation', 'chroot', this.name, '--', ...command);
  }

  /**
   * What the container wrote to its root file system: the paths of its overlay's upper layer (the image's layers
   * are below it; the volume is kept apart), relative to the root.
   */
  written(): string[] {
    const merged = buildah('mount', this.name);
    try {
      const upper = join(dirname(merged), 'diff');
      const walk = (folder: string): string[] =>
        readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
          const path = join(folder, entry.name);
          return entry.isDirectory() ? [relative(upper, path), ...walk(path)] : [relative(upper, path)];
        });
      return walk(upper);
    } finally {
      buildah('umount', this.name);
    }
  }

  remove(): void {
    spawnSync('buildah', ['rm', this.name], { stdio: 'ignore' });
  }
}

/** The first process below `pid` whose root directory is not the host's, and whose name is not buildah's helper. */
function firstContainedDescendant(pid: number): number | undefined {
  const queue = childrenOf(pid);
  while (queue.length > 0) {
    const candidate = queue.shift()!;
    try {
      const root = readlinkSync(`/proc/${candidate}/root`);
      const name = readFileSync(`/proc/${candidate}/comm`, 'utf8').trim();
      if (root !== '/' && !name.startsWith('memfd:')) return candidate;
    } catch {
      // gone meanwhile
    }
    queue.push(...childrenOf(candidate));
  }
  return undefined;
}

/** Waits until the container's first process is there, and returns it. */
export async function firstProcessOf(running: { firstProcess(): number | undefined }): Promise<number> {
  let pid: number | undefined;
  await waitFor(() => (pid = running.firstProcess()) !== undefined, "the container's first process");
  return pid!;
}
