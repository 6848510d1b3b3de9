import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadAll } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUILDAH_SKIP_REASON,
  Container,
  LOCAL_BASES,
  buildImage,
  ensureLocalBases,
  firstProcessOf,
  imageOf,
} from '../support/buildah';
import { postgres, queryDatabase, type TestDatabase } from '../support/databases';
import { freePort, logLinesOf } from '../support/service-process';
import { TEST_API_KEY } from '../support/test-app';
import { scaled, waitFor } from '../support/wait-for';

const ROOT = resolve(__dirname, '../..');
const PACKAGE = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { version: string; license: string };
/** One tag, built over on each run: the layers of the last build are the next one's cache. */
const TAG = 'localhost/petstore-test:latest';
const REVISION = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
const SOURCE = 'https://git.example.com/petstore';
const AUTH = { authorization: `Bearer ${TEST_API_KEY}` };
/** The service's SHUTDOWN_GRACE_MS when unset: a stop takes at most this long. */
const DEFAULT_GRACE_MS = 10_000;
const MB = 1024 * 1024;

/**
 * buildah runs a container without a PID namespace (chroot isolation): tini is not PID 1 there, and reaps as a
 * subreaper instead, as it would as PID 1 under a container runtime.
 */
const RUNTIME = { TINI_SUBREAPER: '1' };

/**
 * The repository's Dockerfile, built and run as an operator would (docs/operations.md, "Containers"), with Debian's
 * buildah on local stand-ins for the official Node images (test/support/buildah.ts).
 */
describe.skipIf(BUILDAH_SKIP_REASON)(
  `the container image${BUILDAH_SKIP_REASON ? ` (skipped: ${BUILDAH_SKIP_REASON})` : ''}`,
  () => {
    let build: Awaited<ReturnType<typeof buildImage>>;
    const containers: Container[] = [];
    const container = () => {
      const made = Container.from(TAG);
      containers.push(made);
      return made;
    };

    beforeAll(async () => {
      const bases = await ensureLocalBases();
      build = await buildImage(ROOT, TAG, { VERSION: PACKAGE.version, SOURCE, REVISION });
      console.log(
        `image built in ${build.seconds.toFixed(0)} s${bases.made ? ', the local bases made first' : ''}: ` +
          `${((imageOf(TAG).size - imageOf(LOCAL_BASES.runtime).size) / MB).toFixed(0)} MB over its base`,
      );
    }, scaled(1_800_000));

    afterAll(() => {
      for (const made of containers) made.remove();
    });

    it('builds from the Dockerfile as it is: non-root, production, a volume, tini first, labelled, at most 120 MB over its base', () => {
      expect(build.status, build.output).toBe(0);
      const { config, size } = imageOf(TAG);
      expect(config.User).toBe('node');
      expect(config.Env).toEqual(
        expect.arrayContaining([
          'NODE_ENV=production',
          'HOST=0.0.0.0',
          'PORT=3000',
          'DATABASE_URL=sqlite:/data/petstore.sqlite',
        ]),
      );
      expect(Object.keys(config.Volumes ?? {})).toEqual(['/data']);
      expect(config.Entrypoint).toEqual(['/usr/bin/tini', '--']);
      expect(config.Labels).toMatchObject({
        'org.opencontainers.image.version': PACKAGE.version,
        'org.opencontainers.image.licenses': PACKAGE.license,
        'org.opencontainers.image.source': SOURCE,
        'org.opencontainers.image.revision': REVISION,
      });
      // The Dockerfile's default release, for a build given none, is package.json's.
      const dockerfile = readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8');
      expect(/^ARG VERSION=(.+)$/m.exec(dockerfile)?.[1]).toBe(PACKAGE.version);
      expect(size - imageOf(LOCAL_BASES.runtime).size).toBeLessThanOrEqual(120 * MB);
    });

    it('serves with nothing but API_KEYS, as uid 1000, keeps its pets across a restart, and stops cleanly on SIGTERM', async () => {
      const one = container();
      const port = await freePort();
      const env = { ...RUNTIME, API_KEYS: `team:${TEST_API_KEY}`, PORT: String(port) };
      const first = await started(one, env, port);
      const node = await nodeOf(first.pid);
      expect(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${node}/status`, 'utf8'))?.[1]).toBe('1000');
      const created = await fetch(`http://127.0.0.1:${port}/v1/pets`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Kept', categoryId: 1 }),
      });
      expect(created.status).toBe(201);
      const pet = (await created.json()) as { id: number };
      await stopped(first);

      const second = await started(one, env, port);
      const read = await fetch(`http://127.0.0.1:${port}/v1/pets/${pet.id}`, { headers: AUTH });
      expect([read.status, await read.json()]).toEqual([200, pet]);
      await stopped(second);
      expect(one.exec('id', '-u')).toBe('1000');
      // What it wrote to its root file system: the compile cache in /tmp, and the folders the runtime mounts on.
      expect(one.written().filter((path) => !/^tmp(\/|$)/.test(path))).toEqual(['run']);
    });

    describe.skipIf(postgres.skipReason)(
      `on PostgreSQL${postgres.skipReason ? ` (skipped: ${postgres.skipReason})` : ''}`,
      () => {
        let database: TestDatabase | undefined;
        afterAll(() => database?.drop());

        it('migrates an empty database and serves on it', async () => {
          database = await postgres.create();
          const port = await freePort();
          const running = await started(
            container(),
            { ...RUNTIME, API_KEYS: `team:${TEST_API_KEY}`, PORT: String(port), DATABASE_URL: database.url },
            port,
          );
          const created = await fetch(`http://127.0.0.1:${port}/v1/pets`, {
            method: 'POST',
            headers: { ...AUTH, 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'On PostgreSQL', categoryId: 1 }),
          });
          expect(created.status).toBe(201);
          expect(await queryDatabase(database.url, 'SELECT name FROM pets')).toEqual([{ name: 'On PostgreSQL' }]);
          await stopped(running);
        });
      },
    );

    it("agrees with the guide's Kubernetes example: its ports, probes, timings, user and memory", async () => {
      const documents = kubernetesExample();
      const deployment = documents.find((document) => document.kind === 'Deployment');
      const spec = deployment.spec.template.spec;
      const [service] = spec.containers;
      const env = Object.fromEntries(
        service.env.filter((entry: any) => entry.value !== undefined).map((entry: any) => [entry.name, entry.value]),
      );
      const portOf = (name: string) => service.ports.find((port: any) => port.name === name)?.containerPort;
      // Every variable it sets is one the service reads.
      const known = [...readFileSync(resolve(ROOT, '.env.example'), 'utf8').matchAll(/^#? ?([A-Z_]+)=/gm)].map(
        (match) => match[1],
      );
      expect(service.env.map((entry: any) => entry.name).filter((name: string) => !known.includes(name))).toEqual([]);
      expect(String(portOf('management'))).toBe(env.MANAGEMENT_PORT);
      expect(portOf('http')).toBe(3000);
      // The grace period outlasts the service's own; readiness fails within the delay; no preStop adds to them.
      const graceMs = Number(env.SHUTDOWN_GRACE_MS ?? DEFAULT_GRACE_MS);
      expect(spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(graceMs);
      expect(service.lifecycle?.preStop).toBeUndefined();
      const readiness = service.readinessProbe;
      expect(readiness.periodSeconds * readiness.failureThreshold * 1000).toBeLessThanOrEqual(
        Number(env.SHUTDOWN_DELAY_MS),
      );
      expect(spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(service.securityContext.readOnlyRootFilesystem).toBe(true);
      expect(service.volumeMounts.map((mount: any) => mount.mountPath).sort()).toEqual(['/data', '/tmp']);
      // The Service and the budget select the Deployment's pods; the Service's port is a port of the container.
      const labels = deployment.spec.template.metadata.labels;
      const selected = (selector: Record<string, string>) =>
        Object.entries(selector).every(([name, value]) => labels[name] === value);
      const serviceObject = documents.find((document) => document.kind === 'Service');
      expect(selected(serviceObject.spec.selector)).toBe(true);
      expect(portOf(serviceObject.spec.ports[0].targetPort)).toBeDefined();
      const budget = documents.find((document) => document.kind === 'PodDisruptionBudget');
      expect(selected(budget.spec.selector.matchLabels)).toBe(true);
      expect(budget.spec.minAvailable).toBeLessThan(deployment.spec.replicas);

      // The image with the example's settings: the probes' paths answer 200 on the management port, the API on http.
      const http = await freePort();
      const management = await freePort();
      const running = await started(
        container(),
        {
          ...RUNTIME,
          ...env,
          API_KEYS: `team:${TEST_API_KEY}`,
          PORT: String(http),
          MANAGEMENT_PORT: String(management),
        },
        http,
      );
      for (const probe of [service.livenessProbe, readiness]) {
        expect(probe.httpGet.port).toBe('management');
        expect((await fetch(`http://127.0.0.1:${management}${probe.httpGet.path}`)).status).toBe(200);
      }
      // Memory: the request covers what it holds idle, the limit what a load makes it hold (with room to spare).
      const node = await nodeOf(running.pid);
      const idle = memoryOf(node, 'VmRSS');
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          for (let n = 0; n < 150; n++)
            await (await fetch(`http://127.0.0.1:${http}/v1/pets?limit=20`, { headers: AUTH })).text();
        }),
      );
      const peak = memoryOf(node, 'VmHWM');
      console.log(
        `in the container: ${(idle / MB).toFixed(0)} MB idle, ${(peak / MB).toFixed(0)} MB after 3,000 requests`,
      );
      expect(mebibytes(service.resources.requests.memory)).toBeGreaterThan(idle);
      expect(mebibytes(service.resources.limits.memory)).toBeGreaterThan(peak * 1.5);
      await stopped(running);
    });
  },
);

/** The container run with `env`, once it answers on `port`; its first process. */
async function started(container: Container, env: Record<string, string>, port: number) {
  const running = container.run(env);
  await waitFor(
    async () => {
      if (running.output().includes('exited with status'))
        throw new Error(`the container stopped:\n${running.output()}`);
      return fetch(`http://127.0.0.1:${port}/health/live`).then(
        () => true,
        () => false,
      );
    },
    'the container to answer',
    60_000,
  );
  return { ...running, pid: await firstProcessOf(running) };
}

/** SIGTERM to the container's first process: it exits 0 within the service's grace, and logs no error. */
async function stopped(running: { pid: number; exited: Promise<number | string>; output(): string }) {
  const signalled = Date.now();
  process.kill(running.pid, 'SIGTERM');
  expect(await running.exited).toBe(0);
  expect(Date.now() - signalled).toBeLessThan(scaled(DEFAULT_GRACE_MS));
  const lines = running
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'));
  expect(logLinesOf(lines.join('\n')).filter((line) => line.level >= 50)).toEqual([]);
  expect(lines.join('\n')).toContain('stopped cleanly');
}

/** Node, below tini. */
async function nodeOf(tini: number): Promise<number> {
  let node: number | undefined;
  await waitFor(() => {
    const children = readFileSync(`/proc/${tini}/task/${tini}/children`, 'utf8').trim();
    node = children === '' ? undefined : Number(children.split(' ')[0]);
    return node !== undefined;
  }, 'node below tini');
  return node!;
}

function memoryOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const kilobytes = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1];
  return Number(kilobytes) * 1024;
}

/** `192Mi` in bytes. */
function mebibytes(quantity: string): number {
  const match = /^(\d+)Mi$/.exec(quantity);
  if (!match) throw new Error(`not a quantity in Mi: ${quantity}`);
  return Number(match[1]) * MB;
}

/** The YAML documents of the guide's Kubernetes example, as an operator would copy them. */
function kubernetesExample(): any[] {
  const guide = readFileSync(resolve(ROOT, 'docs/operations.md'), 'utf8');
  const section = guide.slice(guide.indexOf('### Kubernetes'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('docs/operations.md has no ```yaml block under "### Kubernetes"');
  return loadAll(block) as any[];
}
