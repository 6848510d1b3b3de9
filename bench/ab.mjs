// npm run bench:ab -- <git ref> [scenario ...]: the service built at <ref> (A) against the working tree (B), both
// running, loaded in turn scenario by scenario, round after round, who goes first alternating; medians of the rates,
// of the CPU per request and of the per-round ratios. `npm run bench:ab -- HEAD` measures two builds of the same code:
// the noise a change must beat. BENCH_B_ENV='{"NAME":"value"}': B runs with these settings too (the same build with
// a setting changed, against HEAD); OTEL_EXPORTER_OTLP_ENDPOINT "sink" is the bench's own collector (otlp-sink.mjs).
// BENCH_DB=postgres: both on PostgreSQL, each on a database of its own (BENCH_POSTGRES_URL's server). See
// bench/README.md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  load,
  median,
  peakRssMb,
  removeOnInterrupt,
  requestsOf,
  seed,
  serviceTarget,
  start,
  startOtlpSink,
  stop,
} from './harness.mjs';
import { postgresDatabase, seedPostgres } from './postgres.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION = Number(process.env.BENCH_SECONDS ?? 4);
const ON_POSTGRES = process.env.BENCH_DB === 'postgres';
const [ref, ...asked] = process.argv.slice(2);
const scenarios = asked.length > 0 ? asked : ['list', 'get', 'create', 'create-keyed-and-plain', 'mixed'];
if (!ref || scenarios.some((scenario) => !(scenario in requestsOf))) {
  console.error(`usage: npm run bench:ab -- <git ref> [${Object.keys(requestsOf).join(' | ')} ...]`);
  process.exit(2);
}

const git = (...args) => execFileSync('git', args, { cwd: ROOT }).toString().trim();
const work = mkdtempSync(join(tmpdir(), 'petstore-ab-'));
removeOnInterrupt(work);
const before = join(work, 'a');
const commit = git('rev-parse', '--short', ref);

console.log(`building A (${ref}, ${commit}) in a worktree, and B (the working tree)...`);
git('worktree', 'add', '--detach', before, commit);
try {
  // A runs on B's installed packages: say so when its lock file asks for others.
  if (
    readFileSync(join(before, 'package-lock.json'), 'utf8') !== readFileSync(join(ROOT, 'package-lock.json'), 'utf8')
  ) {
    console.log(`A's package-lock.json differs from B's: A runs on B's node_modules`);
  }
  symlinkSync(join(ROOT, 'node_modules'), join(before, 'node_modules'));
  const build = (cwd) => execFileSync('npm', ['run', 'build'], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  build(before);
  build(ROOT);
  const targets = { A: serviceTarget(before, `A ${commit}`), B: serviceTarget(ROOT, 'B') };
  const extraB = JSON.parse(process.env.BENCH_B_ENV ?? '{}');
  const sink = extraB.OTEL_EXPORTER_OTLP_ENDPOINT === 'sink' ? await startOtlpSink() : undefined;
  if (sink) extraB.OTEL_EXPORTER_OTLP_ENDPOINT = sink.url;
  const runs = []; // { round, which, scenario, rps, cpuUs, p99, errors, non2xx }
  const rss = { A: [], B: [] }; // each process's peak, MB
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? ['A', 'B'] : ['B', 'A'];
    const procs = {};
    const databases = [];
    for (const which of order) {
      const db = join(work, `${which}-round${round}.sqlite`);
      const postgres = ON_POSTGRES
        ? await postgresDatabase(`petstore_ab_${process.pid}_${which.toLowerCase()}_${round}`)
        : undefined;
      if (postgres) databases.push(postgres);
      const env = { ...(which === 'B' ? extraB : {}), ...(postgres && { DATABASE_URL: postgres.url }) };
      procs[which] = await start(targets[which], db, env);
      await (postgres ? seedPostgres(postgres.url, 1000) : seed(db, 1000));
    }
    try {
      for (const scenario of scenarios) {
        for (const which of order) {
          await load(procs[which], scenario, 1);
          const run = await load(procs[which], scenario, DURATION);
          runs.push({ round, which, scenario, ...run });
          console.log(
            `round ${round} ${which} ${scenario.padEnd(22)} ${run.rps.toFixed(0).padStart(6)} req/s  ${run.cpuUs.toFixed(0).padStart(4)} µs CPU/request  p99 ${run.p99} ms  errors ${run.errors}  non-2xx ${run.non2xx}`,
          );
        }
      }
    } finally {
      for (const which of order) {
        rss[which].push(peakRssMb(procs[which].child.pid));
        await stop(procs[which]);
      }
      for (const database of databases) await database.drop();
    }
  }
  await sink?.stop();
  report(runs, rss);
} finally {
  rmSync(join(before, 'node_modules'), { force: true });
  git('worktree', 'remove', '--force', before);
  if (existsSync(work)) rmSync(work, { recursive: true, force: true });
}

function report(runs, rss) {
  const spread = (values) => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;
  const rows = scenarios.map((scenario) => {
    const of = (which) => runs.filter((run) => run.scenario === scenario && run.which === which);
    const pairs = of('A').map((a) => [a, of('B').find((b) => b.round === a.round)]);
    const rate = pairs.map(([a, b]) => b.rps / a.rps);
    const cpu = pairs.map(([a, b]) => b.cpuUs / a.cpuUs);
    const pick = (which, key) => median(of(which).map((run) => run[key]));
    const errors = runs.filter((run) => run.scenario === scenario).reduce((n, run) => n + run.errors + run.non2xx, 0);
    return `| ${scenario} | ${pick('A', 'rps').toFixed(0)} | ${pick('B', 'rps').toFixed(0)} | ${median(rate).toFixed(2)} (${spread(rate)}) | ${pick('A', 'cpuUs').toFixed(0)} | ${pick('B', 'cpuUs').toFixed(0)} | ${median(cpu).toFixed(2)} (${spread(cpu)}) | ${pick('A', 'p99')} / ${pick('B', 'p99')} | ${errors} |`;
  });
  console.log(
    [
      '',
      `A: ${ref} (${commit}); B: the working tree${process.env.BENCH_B_ENV ? ` with ${process.env.BENCH_B_ENV}` : ''}; ${ROUNDS} rounds of ${DURATION} s, medians (per-round range)`,
      '',
      '| scenario | A req/s | B req/s | rate B / A | A µs CPU/request | B µs CPU/request | CPU B / A | p99 ms A / B | errors |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
      `peak RSS of each process, MB: A ${rss.A.map((mb) => mb.toFixed(0)).join(', ')}; B ${rss.B.map((mb) => mb.toFixed(0)).join(', ')}`,
    ].join('\n'),
  );
}
