// npm run bench: the service against the reference implementation, side by
// side, round by round, on this machine. See bench/README.md.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import sqlite3 from 'sqlite3';

const ROOT = resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const KEY = 'bench-key-0123456789abcdef';
const STATUSES = ['available', 'pending', 'sold', null];
// The service runs exactly as `npm run start:prod` runs it (same node flags).
const START_PROD = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  .scripts['start:prod'].split(/\s+/)
  .slice(1);
const TARGETS = {
  service: {
    label: 'service',
    args: START_PROD.map((arg) => (arg.startsWith('dist/') ? join(ROOT, arg) : arg)),
    env: (db) => ({
      DATABASE_URL: `sqlite:${db}`,
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'info',
      NODE_ENV: 'production',
    }),
  },
  reference: {
    label: 'reference',
    args: [join(ROOT, 'bench/reference/server.mjs')],
    env: (db) => ({ DATABASE_PATH: db }),
  },
};
const SCENARIOS = ['list', 'list-sold-1k', 'get', 'create', 'mixed', 'list-sold-1M', 'list-sold-1M-deep'];
/** Scenarios run on the 1,000,000-pet database. */
const BIG = ['list-sold-1M', 'list-sold-1M-deep'];
const RATIO_TARGETS = ['list', 'get', 'create', 'mixed'];

const headers = { authorization: `Bearer ${KEY}` };
const newPet = () =>
  JSON.stringify({
    name: `bench-${Math.random().toString(36).slice(2, 8)}`,
    categoryId: Math.floor(Math.random() * 1000),
    status: 'available',
  });
const randomId = (max) => 1 + Math.floor(Math.random() * max);
const requestsOf = {
  list: () => [{ method: 'GET', path: '/v1/pets?limit=20', headers }],
  'list-sold-1k': () => [{ method: 'GET', path: '/v1/pets?status=sold&limit=20', headers }],
  'list-sold-1M': () => [{ method: 'GET', path: '/v1/pets?status=sold&limit=20', headers }],
  // Each connection walks the pages by their Link rel="next", from a random point past the middle of the table.
  'list-sold-1M-deep': () => [
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
  get: () => [{ method: 'GET', headers, setupRequest: (req) => ({ ...req, path: `/v1/pets/${randomId(1000)}` }) }],
  create: () => [
    {
      method: 'POST',
      path: '/v1/pets',
      headers: { ...headers, 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: newPet() }),
    },
  ],
  mixed: () => [
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
};

function freePort() {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** Starts a target and measures the time from spawn to its first answered /health/live. */
async function start(target, db) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, target.args, {
    env: { PATH: process.env.PATH, API_KEYS: KEY, PORT: String(port), HOST: '127.0.0.1', ...target.env(db) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    const ok = await fetch(`${url}/health/live`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null) throw new Error(`${target.label} exited during startup`);
    await new Promise((wait) => setTimeout(wait, 5));
  }
  return { child, url, readyMs: performance.now() - started };
}

async function stop(proc) {
  const exited = new Promise((done) => proc.child.once('exit', done));
  proc.child.kill('SIGTERM');
  await exited;
}

/** Peak resident set size of a process so far, in MB (Linux). */
function peakRssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** Seeds `count` pets with SQL in one transaction, next to the running target (WAL allows it). */
function seed(db, count) {
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

async function load(url, scenario, seconds) {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: requestsOf[scenario](),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  console.log('building the service...');
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const work = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
  const results = []; // { round, target, scenario, rps, p50, p99, rssMb }
  const ready = { service: [], reference: [] };
  const rss = { service: [], reference: [] };
  try {
    // The 1,000,000-pet databases, one per target, made once by each target's own schema and seeded with SQL.
    const big = {};
    for (const name of Object.keys(TARGETS)) {
      big[name] = join(work, `${name}-1M.sqlite`);
      const proc = await start(TARGETS[name], big[name]);
      console.log(`seeding 1,000,000 pets for the ${name}...`);
      await seed(big[name], 1_000_000);
      await stop(proc);
    }
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternate who goes first, so that drift on the machine falls on both.
      const order = round % 2 ? ['service', 'reference'] : ['reference', 'service'];
      for (const name of order) {
        const db = join(work, `${name}-round${round}.sqlite`);
        const proc = await start(TARGETS[name], db);
        ready[name].push(proc.readyMs);
        await seed(db, 1000);
        for (const scenario of SCENARIOS.filter((s) => !BIG.includes(s))) {
          await load(proc.url, scenario, 1); // warm-up, not recorded
          const r = await load(proc.url, scenario, DURATION);
          results.push({ round, target: name, scenario, ...r });
          console.log(
            `round ${round} ${name.padEnd(9)} ${scenario.padEnd(13)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors}  non-2xx ${r.non2xx}  peak RSS so far ${peakRssMb(proc.child.pid).toFixed(0)} MB`,
          );
        }
        rss[name].push(peakRssMb(proc.child.pid));
        console.log(`round ${round} ${name.padEnd(9)} peak RSS ${rss[name].at(-1).toFixed(0)} MB (1,000-pet database)`);
        await stop(proc);

        const bigProc = await start(TARGETS[name], big[name]);
        for (const scenario of BIG) {
          await load(bigProc.url, scenario, 1);
          const r = await load(bigProc.url, scenario, DURATION);
          results.push({ round, target: name, scenario, ...r });
          console.log(
            `round ${round} ${name.padEnd(9)} ${scenario.padEnd(17)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors}  non-2xx ${r.non2xx}`,
          );
        }
        rss[name].push(peakRssMb(bigProc.child.pid));
        console.log(
          `round ${round} ${name.padEnd(9)} peak RSS ${rss[name].at(-1).toFixed(0)} MB (1,000,000-pet database)`,
        );
        await stop(bigProc);
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  report(results, ready, rss);
}

function report(results, ready, rss) {
  const rows = SCENARIOS.map((scenario) => {
    const of = (target) => results.filter((r) => r.scenario === scenario && r.target === target);
    const ratios = [...new Set(results.map((r) => r.round))].map((round) => {
      const s = of('service').find((r) => r.round === round);
      const ref = of('reference').find((r) => r.round === round);
      return s.rps / ref.rps;
    });
    const pick = (target, key) => median(of(target).map((r) => r[key]));
    return {
      scenario,
      service: {
        rps: pick('service', 'rps'),
        p50: pick('service', 'p50'),
        p99: pick('service', 'p99'),
        errors: of('service').reduce((n, r) => n + r.errors + r.non2xx, 0),
      },
      reference: { rps: pick('reference', 'rps'), p50: pick('reference', 'p50'), p99: pick('reference', 'p99') },
      ratio: median(ratios),
    };
  });
  const peak = { service: Math.max(...rss.service), reference: Math.max(...rss.reference) };
  const readyMs = { service: median(ready.service), reference: median(ready.reference) };
  const sold1k = rows.find((r) => r.scenario === 'list-sold-1k').service.rps;
  const sold1M = rows.find((r) => r.scenario === 'list-sold-1M').service.rps;
  const deep1M = rows.find((r) => r.scenario === 'list-sold-1M-deep').service.rps;
  const checks = [
    ...RATIO_TARGETS.map((s) => [
      `${s}: service/reference >= 0.8`,
      rows.find((r) => r.scenario === s).ratio >= 0.8,
      rows.find((r) => r.scenario === s).ratio.toFixed(2),
    ]),
    [
      'service p99 <= 15 ms in every scenario',
      rows.every((r) => r.service.p99 <= 15),
      `max ${Math.max(...rows.map((r) => r.service.p99))} ms`,
    ],
    ['service peak RSS <= 150 MB', peak.service <= 150, `${peak.service.toFixed(0)} MB`],
    ['list status=sold at 1M >= 0.9 x at 1k', sold1M >= 0.9 * sold1k, (sold1M / sold1k).toFixed(2)],
    [
      'deep page walk (Link rel=next) at 1M >= 0.9 x list status=sold at 1k',
      deep1M >= 0.9 * sold1k,
      (deep1M / sold1k).toFixed(2),
    ],
    ['ready within 1.5 s of start', readyMs.service <= 1500, `${readyMs.service.toFixed(0)} ms`],
    [
      'no errors or non-2xx answers under load',
      rows.every((r) => r.service.errors === 0),
      `${rows.reduce((n, r) => n + r.service.errors, 0)}`,
    ],
  ];

  const table = [
    '| scenario | service req/s | p50 ms | p99 ms | reference req/s | p50 ms | p99 ms | service / reference |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${r.service.rps.toFixed(0)} | ${r.service.p50} | ${r.service.p99} | ${r.reference.rps.toFixed(0)} | ${r.reference.p50} | ${r.reference.p99} | ${r.ratio.toFixed(2)} |`,
    ),
  ].join('\n');
  const summary = [
    `| | service | reference |`,
    `|---|---:|---:|`,
    `| peak RSS | ${peak.service.toFixed(0)} MB | ${peak.reference.toFixed(0)} MB |`,
    `| ready after start (median) | ${readyMs.service.toFixed(0)} ms | ${readyMs.reference.toFixed(0)} ms |`,
  ].join('\n');
  const verdicts = checks
    .map(([name, ok, value]) => `| ${name} | ${value} | ${ok ? 'met' : '**missed**'} |`)
    .join('\n');
  console.log(`\n${table}\n\n${summary}\n\n| target | measured | |\n|---|---|---|\n${verdicts}`);

  writeFileSync(join(ROOT, 'bench/results.svg'), chart(rows));
  writeFileSync(
    join(ROOT, 'bench/results.md'),
    `# Benchmark results\n\n${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${ROUNDS} rounds of ${DURATION} s per scenario and target, ` +
      `${CONNECTIONS} connections from autocannon in the benchmark's own process, the service and the reference alternating round by round. ` +
      `Medians over the rounds; the ratio is the median of the per-round ratios.\n\n${table}\n\n${summary}\n\n## Targets\n\n| target | measured | |\n|---|---|---|\n${verdicts}\n\n![throughput per scenario](results.svg)\n`,
  );
  console.log('\nwrote bench/results.md and bench/results.svg');
  process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
}

/** Grouped bars of requests/s per scenario, service against reference. */
function chart(rows) {
  const width = 760,
    height = 360,
    left = 70,
    bottom = 60,
    top = 40;
  const max = Math.max(...rows.flatMap((r) => [r.service.rps, r.reference.rps])) * 1.1;
  const band = (width - left - 20) / rows.length;
  const y = (v) => top + (height - top - bottom) * (1 - v / max);
  const bars = rows
    .map((r, i) => {
      const x = left + i * band + band * 0.15;
      const w = band * 0.33;
      return (
        `<rect x="${x}" y="${y(r.service.rps)}" width="${w}" height="${y(0) - y(r.service.rps)}" fill="#2f6fde"/>` +
        `<rect x="${x + w + 2}" y="${y(r.reference.rps)}" width="${w}" height="${y(0) - y(r.reference.rps)}" fill="#9aa5b1"/>` +
        `<text x="${x + w}" y="${y(0) + 18}" font-size="12" text-anchor="middle">${r.scenario}</text>` +
        `<text x="${x + w}" y="${Math.min(y(r.service.rps), y(r.reference.rps)) - 6}" font-size="11" text-anchor="middle">${r.ratio.toFixed(2)}x</text>`
      );
    })
    .join('');
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map((f) => {
      const v = (max / 1.1) * f;
      return `<line x1="${left}" x2="${width - 10}" y1="${y(v)}" y2="${y(v)}" stroke="#e3e6ea"/><text x="${left - 6}" y="${y(v) + 4}" font-size="11" text-anchor="end">${Math.round(v)}</text>`;
    })
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">` +
    `<rect width="100%" height="100%" fill="white"/><text x="${left}" y="22" font-size="15">Requests per second (median), service vs reference; label: service/reference</text>` +
    `${ticks}${bars}` +
    `<rect x="${width - 200}" y="${height - 22}" width="12" height="12" fill="#2f6fde"/><text x="${width - 184}" y="${height - 12}" font-size="12">service</text>` +
    `<rect x="${width - 110}" y="${height - 22}" width="12" height="12" fill="#9aa5b1"/><text x="${width - 94}" y="${height - 12}" font-size="12">reference</text></svg>\n`
  );
}

await main();
