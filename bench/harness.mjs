// What the benchmark's commands share: the scenarios' requests, starting and
// stopping a target, seeding its database, and loading it while measuring its
// CPU per request. bench/run.mjs, bench/ab.mjs and bench/profile.mjs use it.
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import sqlite3 from 'sqlite3';

export const CONNECTIONS = 50;
export const KEY = 'bench-key-0123456789abcdef';
const STATUSES = ['available', 'pending', 'sold', null];

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The service built at `root`, run exactly as `npm run start:prod` runs it there (same node flags), with every
 * feature on at LOG_LEVEL=info but rate limiting.
 */
export function serviceTarget(root, label = 'service') {
  const startProd = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    .scripts['start:prod'].split(/\s+/)
    .slice(1);
  return {
    label,
    args: startProd.map((arg) => (arg.startsWith('dist/') ? join(root, arg) : arg)),
    env: (db) => ({
      DATABASE_URL: `sqlite:${db}`,
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
    }),
  };
}

const newPet = () =>
  JSON.stringify({
    name: `bench-${Math.random().toString(36).slice(2, 8)}`,
    categoryId: Math.floor(Math.random() * 1000),
    status: 'available',
  });
const randomId = (max) => 1 + Math.floor(Math.random() * max);
/**
 * The requests of each scenario, as autocannon takes them, with `headers` (the bearer key) on each.
 */
export const requestsOf = {
  list: (headers) => [{ method: 'GET', path: '/v1/pets?limit=20', headers }],
  'list-sold-1k': (headers) => [{ method: 'GET', path: '/v1/pets?status=sold&limit=20', headers }],
  'list-sold-1M': (headers) => [{ method: 'GET', path: '/v1/pets?status=sold&limit=20', headers }],
  // Each connection walks the pages by their Link rel="next", from a random point past the middle of the table.
  'list-sold-1M-deep': (headers) => [
    {
      method: 'GET',
      headers,
      setupRequest: (req, context) => {
        context.next ??= `/v1/pets?limit=20&status=sold&after=${500_000 + Math.floor(Math.random() * 400_000)}`;
        return { ...req, path: context.next };
      },
      onResponse: (_status, _body, context, responseHeaders) => {
        const link = responseHeaders.link;
        context.next = link ? /^<([^>]+)>/.exec(link)[1] : undefined;
      },
    },
  ],
  get: (headers) => [
    { method: 'GET', headers, setupRequest: (req) => ({ ...req, path: `/v1/pets/${randomId(1000)}` }) },
  ],
  create: (headers) => [
    {
      method: 'POST',
      path: '/v1/pets',
      headers: { ...headers, 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: newPet() }),
    },
  ],
  // Every create carries a new Idempotency-Key: what idempotency costs a create, against `create`.
  'create-keyed': (headers) => [
    {
      method: 'POST',
      path: '/v1/pets',
      setupRequest: (req) => ({
        ...req,
        headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': `bench-${randomUUID()}` },
        body: newPet(),
      }),
    },
  ],
  // Half the creates carry an Idempotency-Key (a new one each), as retrying clients send them beside plain ones.
  'create-keyed-and-plain': (headers) => [
    {
      method: 'POST',
      path: '/v1/pets',
      setupRequest: (req) => {
        const keyed = Math.random() < 0.5;
        const jsonHeaders = { ...headers, 'content-type': 'application/json' };
        return {
          ...req,
          headers: keyed ? { ...jsonHeaders, 'idempotency-key': `bench-${randomUUID()}` } : jsonHeaders,
          body: newPet(),
        };
      },
    },
  ],
  mixed: (headers) => [
    {
      headers,
      setupRequest: (req) => {
        const roll = Math.random();
        if (roll < 0.4) return { ...req, method: 'GET', path: '/v1/pets?limit=20' };
        if (roll < 0.8) return { ...req, method: 'GET', path: `/v1/pets/${randomId(1000)}` };
        return {
          ...req,
          method: 'POST',
          path: '/v1/pets',
          headers: { ...headers, 'content-type': 'application/json' },
          body: newPet(),
        };
      },
    },
  ],
  // The store (beta): each connection adds a pet of its own (its first request), then places an order for it and
  // cancels it, over and over: two units of work across modules, each with its events, and the inventory's handlers
  // behind them. Nothing depends on what an earlier load left (an order placed as the load ended).
  order: (headers) => [
    {
      headers: { ...headers, 'content-type': 'application/json' },
      setupRequest: (req, context) => {
        if (context.petId === undefined) {
          return {
            ...req,
            method: 'POST',
            path: '/v1/pets',
            body: JSON.stringify({ name: 'order-bench', categoryId: 1, status: 'available' }),
          };
        }
        if (context.orderId === undefined) {
          return { ...req, method: 'POST', path: '/v1/store/orders', body: JSON.stringify({ petId: context.petId }) };
        }
        return { ...req, method: 'DELETE', path: `/v1/store/orders/${context.orderId}`, headers, body: undefined };
      },
      onResponse: (status, body, context) => {
        if (context.petId === undefined) context.petId = status === 201 ? JSON.parse(body).id : undefined;
        else if (context.orderId === undefined) context.orderId = status === 201 ? JSON.parse(body).id : undefined;
        else context.orderId = undefined;
      },
    },
  ],
  inventory: (headers) => [{ method: 'GET', path: '/v1/store/inventory', headers }],
};

export function freePort() {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** Every target process running, and the work folder: what an interrupted run must not leave behind. */
const running = new Set();
let workFolder;

/** The folder an interrupted run removes (its databases: about 100 MB once seeded). */
export function removeOnInterrupt(folder) {
  workFolder = folder;
}

/** Ctrl-C or a SIGTERM: kill the targets, remove the work folder, exit 130/143. */
function cleanUpOn(signal, status) {
  process.once(signal, () => {
    for (const child of running) child.kill('SIGKILL');
    if (workFolder) rmSync(workFolder, { recursive: true, force: true });
    console.error(
      `\n${signal}: the benchmark stopped; its processes are killed and ${workFolder ?? 'nothing'} removed`,
    );
    process.exit(status);
  });
}
cleanUpOn('SIGINT', 130);
cleanUpOn('SIGTERM', 143);

/** Starts a target and measures the time from spawn to its first 200 on `GET /v1/pets` (issue 34's "ready"). */
export async function start(target, db, extraEnv = {}) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, target.args, {
    env: {
      PATH: process.env.PATH,
      API_KEYS: KEY,
      PORT: String(port),
      HOST: '127.0.0.1',
      ...target.env(db),
      ...extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    const ok = await fetch(`${url}/v1/pets`, { headers: { authorization: `Bearer ${KEY}` } }).then(
      (r) => r.arrayBuffer().then(() => r.status === 200),
      () => false,
    );
    if (ok) break;
    // A crash by a signal (a native addon built for another Node: SIGSEGV) leaves exitCode null.
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${target.label} exited during startup`);
    await new Promise((wait) => setTimeout(wait, 5));
  }
  return { child, url, readyMs: performance.now() - started };
}

/** Per answer, not per service: a reference makes these itself (or Node does). */
const PER_ANSWER = new Set(['x-request-id', 'content-length', 'content-type', 'date', 'connection', 'keep-alive']);

/** What the service (`target`, on `db`) sends on a list answer beyond what each answer makes: what a reference sends too. */
export async function serviceHeadersOf(target, db) {
  const proc = await start(target, db);
  try {
    const response = await fetch(`${proc.url}/v1/pets?limit=1`, { headers: { authorization: `Bearer ${KEY}` } });
    await response.arrayBuffer();
    return Object.fromEntries([...response.headers].filter(([name]) => !PER_ANSWER.has(name)));
  } finally {
    await stop(proc);
  }
}

/** The OTLP sink (otlp-sink.mjs) as a process of its own: its URL, and how to stop it. */
export async function startOtlpSink() {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'otlp-sink.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  const port = await new Promise((resolve) => child.stdout.once('data', (chunk) => resolve(String(chunk).trim())));
  return { url: `http://127.0.0.1:${port}`, stop: () => stop({ child }) };
}

export async function stop(proc) {
  const exited = new Promise((done) => proc.child.once('exit', done));
  proc.child.kill('SIGTERM');
  await exited;
}

/** Peak resident set size of a process so far, in MB (Linux). */
export function peakRssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** Seeds `count` pets with SQL in one transaction, next to the running target (WAL allows it). */
export function seed(db, count) {
  return new Promise((done, fail) => {
    const conn = new sqlite3.Database(db);
    conn.serialize(() => {
      conn.run('PRAGMA busy_timeout = 10000');
      conn.run('BEGIN');
      const insert = conn.prepare('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)');
      for (let i = 0; i < count; i++) insert.run(`pet-${i}`, i % 1000, STATUSES[i % 4]);
      insert.finalize();
      conn.run('COMMIT', (error) => conn.close(() => (error ? fail(error) : done())));
    });
  });
}

/** Clock ticks per second of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** CPU seconds a process has used so far, in user and kernel mode, all its threads (Linux). */
export function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/**
 * Loads a running target with one scenario. Besides the rate and latencies, the target's CPU time per answered
 * request: on 2 cores the load generator takes the other core, so the rate swings with the machine, while the CPU a
 * request costs the target is steadier (decision 0019).
 */
export async function load(proc, scenario, seconds, key = KEY) {
  const cpuBefore = cpuSeconds(proc.child.pid);
  const result = await autocannon({
    url: proc.url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: requestsOf[scenario]({ authorization: `Bearer ${key}` }),
  });
  return {
    cpuUs: ((cpuSeconds(proc.child.pid) - cpuBefore) * 1e6) / Math.max(1, result.requests.total),
    rps: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
