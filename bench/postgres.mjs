// BENCH_DB=postgres npm run bench: the fleet's path. The service on PostgreSQL against the same contract on bare
// Fastify and node-postgres (reference/server.mjs with REFERENCE_DRIVER=postgres: a pool of 10, the service's; named
// prepared statements; the service's headers) and the card's stack bare (reference/nest-bare.mjs), each on a fresh
// database of its own on the same server (BENCH_POSTGRES_URL), who goes first rotating round by round; then the
// fleet's curve: 1, 2 and 3 instances of the service and of the reference behind HAProxy (the operations guide's
// configuration) on one database, under `mixed`. See bench/README.md.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  CONNECTIONS,
  KEY,
  cpuSeconds,
  freePort,
  load,
  median,
  removeOnInterrupt,
  serviceHeadersOf,
  start,
  stop,
} from './harness.mjs';

const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A new database on the bench's PostgreSQL server (BENCH_POSTGRES_URL), its URL, and how to drop it. */
export async function postgresDatabase(name) {
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).finally(() => client.end());
    },
  };
}
const SCENARIOS = ['list', 'list-sold-1k', 'get', 'create', 'create-keyed-and-plain', 'mixed'];
/** Issue 53's goals: the service's rate over the reference's on the same PostgreSQL server, at least. */
const TARGETS_OF = { list: 0.9, get: 0.9, create: 0.8, mixed: 0.8 };
const FLEET = [1, 2, 3];

/** Runs the PostgreSQL bench: `service` is the service's target (harness.serviceTarget), the run's settings. */
export async function benchPostgres({ root, service, rounds, duration }) {
  // The server answers, or the run stops at once, saying where it looked.
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
    await admin.end();
  } catch (error) {
    throw new Error(
      `BENCH_DB=postgres: no PostgreSQL answers at ${ADMIN_URL} (set BENCH_POSTGRES_URL): ${error.message}`,
      { cause: error },
    );
  }
  const work = mkdtempSync(join(tmpdir(), 'petstore-bench-pg-'));
  removeOnInterrupt(work);
  const made = [];
  let n = 0;
  const database = async () => {
    const fresh = await postgresDatabase(`petstore_bench_${process.pid}_${n++}`);
    made.push(fresh);
    return fresh.url;
  };
  const onPostgres = (target) => ({ ...target, env: (url) => ({ ...target.env(':memory:'), DATABASE_URL: url }) });
  const targets = {
    service: onPostgres(service),
    reference: {
      label: 'reference',
      args: [join(root, 'bench/reference/server.mjs')],
      env: (url) => ({ DATABASE_URL: url, REFERENCE_DRIVER: 'postgres', REFERENCE_HEADERS: JSON.stringify(headers) }),
    },
    // The card's stack and nothing else on the same server (NestJS, class-validator DTOs, TypeORM's DataSource): the
    // framework's floor, which says how much of the gap to the reference is the service's own.
    bare: {
      label: 'nest-bare',
      args: [join(root, 'bench/reference/nest-bare.mjs')],
      env: (url) => ({ DATABASE_URL: url, REFERENCE_HEADERS: JSON.stringify(headers) }),
    },
  };
  const names = Object.keys(targets);
  let headers = {};
  const results = [];
  const ready = [];
  try {
    headers = await serviceHeadersOf(targets.service, await database());
    console.log(`PostgreSQL at ${new URL(ADMIN_URL).host}; the reference sends the service's headers too`);
    for (let round = 1; round <= rounds; round++) {
      // Who goes first rotates, so that the machine's drift falls on all.
      for (const name of names.map((_, i) => names[(i + round - 1) % names.length])) {
        const url = await database();
        const proc = await start(targets[name], url);
        if (name === 'service') ready.push(proc.readyMs);
        await seedPostgres(url, 1000);
        for (const scenario of SCENARIOS) {
          await load(proc, scenario, 1);
          const r = await load(proc, scenario, duration);
          results.push({ round, target: name, scenario, ...r });
          console.log(
            `round ${round} ${name.padEnd(10)} ${scenario.padEnd(22)} ${r.rps.toFixed(0).padStart(6)} req/s  ${r.cpuUs.toFixed(0)} µs CPU/request  p99 ${r.p99} ms  errors ${r.errors}  non-2xx ${r.non2xx}`,
          );
        }
        await stop(proc);
      }
    }
    const fleet = haproxyAvailable() ? await fleetCurve(targets, database, work, duration) : undefined;
    if (!fleet) console.log('the fleet curve: not measured (no haproxy on the PATH: apt-get install haproxy)');
    return report(results, ready, fleet, rounds, duration, root);
  } finally {
    for (const fresh of made) await fresh.drop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  }
}

/** `count` pets in one statement, the statuses in turn as the SQLite bench seeds them (a quarter sold). */
export async function seedPostgres(url, count) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      "INSERT INTO pets (name, category_id, status) SELECT 'pet-' || i, i % 1000, " +
        "(ARRAY['available', 'pending', 'sold', NULL])[i % 4 + 1] FROM generate_series(0, $1 - 1) AS i",
      [count],
    );
  } finally {
    await client.end();
  }
}

function haproxyAvailable() {
  return spawnSync('haproxy', ['-v']).status === 0;
}

/**
 * 1, 2 and 3 instances of each target on one database, behind HAProxy with the operations guide's configuration
 * (round robin, keep-alive, readiness checks), loaded with `mixed`: the rate of each size, and the CPU the instances
 * and PostgreSQL's own processes took per request (the machine's 2 cores are shared by all of them and the load).
 */
async function fleetCurve(targets, database, work, duration) {
  const guide = readFileSync(join(import.meta.dirname, '../docs/operations.md'), 'utf8');
  const documented = /```haproxy\n([\s\S]*?)```/.exec(guide)[1];
  const curve = [];
  for (const name of ['service', 'reference']) {
    for (const size of FLEET) {
      const url = await database();
      const instances = [];
      let haproxy;
      try {
        for (let i = 0; i < size; i++) instances.push(await start(targets[name], url));
        await seedPostgres(url, 1000);
        const port = await freePort();
        const configuration = join(work, `haproxy-${name}-${size}.cfg`);
        writeFileSync(
          configuration,
          documented
            .replace(/^ *stats socket .*\n/m, '')
            .replace('bind :80', `bind 127.0.0.1:${port}`)
            .replace(/^ *server petstore-.*\n/gm, '')
            .trimEnd() +
            '\n' +
            instances.map((proc, i) => `    server petstore-${i + 1} ${new URL(proc.url).host}\n`).join(''),
        );
        haproxy = spawn('haproxy', ['-db', '-f', configuration], { stdio: ['ignore', 'ignore', 'inherit'] });
        const front = { url: `http://127.0.0.1:${port}`, child: haproxy };
        await untilServed(front.url);
        const cpu = () => instances.reduce((sum, proc) => sum + cpuSeconds(proc.child.pid), 0) + postgresCpu();
        await load(front, 'mixed', 1);
        const before = cpu();
        const r = await load(front, 'mixed', duration);
        const cpuUs = ((cpu() - before) * 1e6) / Math.max(1, r.requests);
        curve.push({ target: name, size, rps: r.rps, p99: r.p99, cpuUs, errors: r.errors + r.non2xx });
        console.log(
          `fleet ${name.padEnd(10)} ${size} behind HAProxy  mixed ${r.rps.toFixed(0).padStart(6)} req/s  p99 ${r.p99} ms  ` +
            `${cpuUs.toFixed(0)} µs CPU/request (instances and PostgreSQL)  errors ${r.errors}  non-2xx ${r.non2xx}`,
        );
      } finally {
        if (haproxy) await stop({ child: haproxy });
        for (const proc of instances) await stop(proc);
      }
    }
  }
  return curve;
}

/** Resolves once HAProxy answers a list through a server it found ready. */
async function untilServed(url) {
  for (let tries = 0; tries < 500; tries++) {
    const ok = await fetch(`${url}/v1/pets`, { headers: { authorization: `Bearer ${KEY}` } }).then(
      (r) => r.arrayBuffer().then(() => r.status === 200),
      () => false,
    );
    if (ok) return;
    await new Promise((wait) => setTimeout(wait, 20));
  }
  throw new Error(`HAProxy at ${url} served nothing within 10 s`);
}

/** CPU seconds of every PostgreSQL process on this machine (its server and backends), when it runs here. */
function postgresCpu() {
  const pids = spawnSync('pgrep', ['-x', 'postgres']).stdout.toString().trim().split('\n').filter(Boolean);
  return pids.reduce((sum, pid) => {
    try {
      return sum + cpuSeconds(pid);
    } catch {
      return sum; // A backend that ended meanwhile.
    }
  }, 0);
}

function report(results, ready, fleet, rounds, duration, root) {
  const of = (target, scenario) => results.filter((r) => r.target === target && r.scenario === scenario);
  /** The median over the rounds of `ratio` between `target`'s run and `to`'s in the same round. */
  const perRound = (scenario, target, to, ratio) =>
    median(
      [...new Set(results.map((r) => r.round))].map((round) =>
        ratio(
          of(target, scenario).find((r) => r.round === round),
          of(to, scenario).find((r) => r.round === round),
        ),
      ),
    );
  const rows = SCENARIOS.map((scenario) => ({
    scenario,
    service: of('service', scenario),
    reference: of('reference', scenario),
    bare: of('bare', scenario),
    ratio: perRound(scenario, 'service', 'reference', (s, r) => s.rps / r.rps),
    cpuRatio: perRound(scenario, 'service', 'reference', (s, r) => r.cpuUs / s.cpuUs),
    bareRatio: perRound(scenario, 'bare', 'reference', (b, r) => b.rps / r.rps),
    serviceToBare: perRound(scenario, 'service', 'bare', (s, b) => s.rps / b.rps),
  }));
  const pick = (runs, key) => median(runs.map((r) => r[key]));
  const table = [
    '| scenario | service req/s | p99 ms | CPU µs/request | reference req/s | p99 ms | CPU µs/request | service / reference | CPU reference / service |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${pick(r.service, 'rps').toFixed(0)} | ${pick(r.service, 'p99')} | ${pick(r.service, 'cpuUs').toFixed(0)} | ${pick(r.reference, 'rps').toFixed(0)} | ${pick(r.reference, 'p99')} | ${pick(r.reference, 'cpuUs').toFixed(0)} | ${r.ratio.toFixed(2)} | ${r.cpuRatio.toFixed(2)} |`,
    ),
  ].join('\n');
  const bareTable = [
    "| scenario | the card's stack, bare: req/s | p99 ms | CPU µs/request | it / reference | service / it |",
    '|---|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${pick(r.bare, 'rps').toFixed(0)} | ${pick(r.bare, 'p99')} | ${pick(r.bare, 'cpuUs').toFixed(0)} | ${r.bareRatio.toFixed(2)} | ${r.serviceToBare.toFixed(2)} |`,
    ),
  ].join('\n');
  const readyMs = median(ready);
  const errors = results.filter((r) => r.target === 'service').reduce((sum, r) => sum + r.errors + r.non2xx, 0);
  const checks = [
    ...Object.entries(TARGETS_OF).map(([scenario, least]) => {
      const { ratio } = rows.find((r) => r.scenario === scenario);
      return [`${scenario}: service/reference >= ${least.toFixed(2)}`, ratio >= least, ratio.toFixed(2)];
    }),
    ['ready within 1 s of start (first 200 on /v1/pets)', readyMs <= 1000, `${readyMs.toFixed(0)} ms`],
    ['no errors or non-2xx answers under load', errors === 0, String(errors)],
  ];
  const verdicts = checks
    .map(([name, ok, value]) => `| ${name} | ${value} | ${ok ? 'met' : '**missed**'} |`)
    .join('\n');
  const fleetTable = fleet
    ? [
        '| instances behind HAProxy | service req/s | p99 ms | CPU µs/request (instances and PostgreSQL) | reference req/s | p99 ms | CPU µs/request | service / reference |',
        '|---:|---:|---:|---:|---:|---:|---:|---:|',
        ...FLEET.map((size) => {
          const s = fleet.find((r) => r.target === 'service' && r.size === size);
          const r = fleet.find((f) => f.target === 'reference' && f.size === size);
          return `| ${size} | ${s.rps.toFixed(0)} | ${s.p99} | ${s.cpuUs.toFixed(0)} | ${r.rps.toFixed(0)} | ${r.p99} | ${r.cpuUs.toFixed(0)} | ${(s.rps / r.rps).toFixed(2)} |`;
        }),
      ].join('\n')
    : 'Not measured (no haproxy on the PATH).';
  console.log(`\n${table}\n\n${bareTable}\n\n${fleetTable}\n\n| target | measured | |\n|---|---|---|\n${verdicts}`);
  writeFileSync(
    join(root, 'bench/results-postgres.md'),
    `# Benchmark results on PostgreSQL\n\n${new Date().toISOString().slice(0, 10)}, Node ${process.version}, \`BENCH_DB=postgres\`, ` +
      `${rounds} rounds of ${duration} s per scenario and target, ${CONNECTIONS} connections from autocannon in the benchmark's own process, ` +
      `the service and the reference alternating round by round, each on a fresh database of its own on the same PostgreSQL server. ` +
      `The reference is \`bench/reference/server.mjs\` on node-postgres (a pool of 10, as the service's; named prepared statements; ` +
      `the service's headers). Medians over the rounds; the ratios are medians of the per-round ratios.\n\n${table}\n\n` +
      `## The framework's share\n\nThe same contract on the design card's stack and nothing else (\`bench/reference/nest-bare.mjs\` on ` +
      `the same server: NestJS on Fastify, Nest's ValidationPipe with class-validator DTOs, a bearer guard, the same SQL through ` +
      `TypeORM's DataSource, the service's headers), in the same rounds: its rate over the reference's is what the card's libraries ` +
      `cost by themselves; the service's over its rate is what the service adds on top.\n\n${bareTable}\n\n` +
      `## The fleet's curve\n\n1, 2 and 3 instances on one database behind HAProxy (the operations guide's configuration), \`mixed\`, one ` +
      `run each. The CPU per request counts the instances and PostgreSQL's processes (not HAProxy's or the load generator's).\n\n${fleetTable}\n\n` +
      `## Targets\n\n| target | measured | |\n|---|---|---|\n${verdicts}\n`,
  );
  console.log('\nwrote bench/results-postgres.md');
  return checks.every(([, ok]) => ok);
}
