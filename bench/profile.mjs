// npm run bench:profile [scenario]: runs the built service under `node --cpu-prof`
// with one benchmark scenario for 5 s, then prints the functions that cost
// the most CPU (self time) during the load alone, grouped by package. The .cpuprofile is kept in
// bench/.work/ for Chrome DevTools, and the CPU per request of each
// feature's own code (its files and its packages; not what it makes Node do,
// such as writing its log line or checking its headers): a figure that the
// spread between two processes of one build (up to 15 % of the total on a
// small machine, decision 0024) does not blur. BENCH_TRACING=<ratio>: with
// tracing on, that share of the traces sampled, exported to a sink
// (otlp-sink.mjs).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { load, removeOnInterrupt, requestsOf, seed, serviceTarget, start, startOtlpSink, stop } from './harness.mjs';
import { postgresDatabase, seedPostgres } from './postgres.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const scenario = process.argv[2] ?? 'list';
if (!(scenario in requestsOf)) {
  console.error(`usage: npm run bench:profile -- [${Object.keys(requestsOf).join(' | ')}]`);
  process.exit(2);
}
const out = join(ROOT, 'bench/.work');
mkdirSync(out, { recursive: true });
const work = mkdtempSync(join(tmpdir(), 'petstore-profile-'));
removeOnInterrupt(work);
const db = join(work, 'p.sqlite');
const service = serviceTarget(ROOT);
const profiled = { ...service, args: ['--cpu-prof', `--cpu-prof-dir=${out}`, ...service.args] };
const ratio = process.env.BENCH_TRACING;
const sink = ratio === undefined ? undefined : await startOtlpSink();
const tracing = sink
  ? {
      OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: ratio,
    }
  : {};
// BENCH_DB=postgres: the service on a database of its own on BENCH_POSTGRES_URL's server.
const postgres =
  process.env.BENCH_DB === 'postgres' ? await postgresDatabase(`petstore_profile_${process.pid}`) : undefined;
const proc = await start(profiled, db, {
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  ...tracing,
  ...(postgres && { DATABASE_URL: postgres.url }),
});
await (postgres ? seedPostgres(postgres.url, 1000) : seed(db, 1000));
const before = new Set(readdirSync(out));
// The load's own window on the system's monotonic clock, which the profile's timestamps (µs) are read from too:
// the start of the process (loading the modules, a seventh of a short profile) is left out of every figure.
const loadStarted = process.hrtime.bigint() / 1000n;
const result = await load(proc, scenario, 5);
const loadEnded = process.hrtime.bigint() / 1000n;
console.log(`${scenario}: ${result.rps} req/s, ${result.cpuUs.toFixed(0)} µs CPU/request, p99 ${result.p99} ms`);
await stop(proc);
await sink?.stop();
await postgres?.drop();
rmSync(work, { recursive: true, force: true });
const file = readdirSync(out).find((name) => name.endsWith('.cpuprofile') && !before.has(name));
const profile = JSON.parse(readFileSync(join(out, file), 'utf8'));
const self = new Map();
let at = BigInt(profile.startTime);
profile.samples.forEach((id, index) => {
  at += BigInt(profile.timeDeltas[index]);
  const interval = profile.timeDeltas[index + 1] ?? 0;
  if (at >= loadStarted && at <= loadEnded) self.set(id, (self.get(id) ?? 0) + interval);
});
const byFunction = new Map();
const byPackage = new Map();
let busy = 0;
/** Where each feature's own code lives, in the built service and in node_modules. */
const FEATURES = {
  'the log line': /node_modules\/(pino|sonic-boom|fast-redact|quick-format-unescaped)\/|\/pipeline\/log-request\.js$/,
  metrics: /node_modules\/prom-client\/|\/pipeline\/count-request\.js$|\/metrics\/metrics\.service\.js$/,
  'security headers': /\/edge\/security-headers\.js$/,
  authentication: /\/dist\/libs\/auth\//,
  validation: /node_modules\/(class-validator|class-transformer|validator|libphonenumber-js)\/|\/validation\.pipe\.js$/,
  'rate limit': /\/dist\/libs\/rate-limit\/|node_modules\/@nestjs\/throttler\//,
  idempotency: /\/dist\/libs\/idempotency\//,
  tracing: /node_modules\/@opentelemetry\/|\/dist\/libs\/tracing\/|\/trace-request\.js$|\/sql-spans\.js$/,
};
const featureTime = new Map(Object.keys(FEATURES).map((name) => [name, 0]));
for (const node of profile.nodes) {
  const time = self.get(node.id) ?? 0;
  const { functionName, url: source, lineNumber } = node.callFrame;
  if (functionName === '(idle)') continue;
  busy += time;
  for (const [name, where] of Object.entries(FEATURES))
    if (where.test(source)) featureTime.set(name, featureTime.get(name) + time);
  const where = source.includes('node_modules/')
    ? source
        .split('node_modules/')
        .pop()
        .split('/')
        .slice(0, source.includes('node_modules/@') ? 2 : 1)
        .join('/')
    : source.includes('/dist/')
      ? 'service'
      : source || '(native)';
  const key = `${functionName || '(anonymous)'} ${source.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + time);
  byPackage.set(where, (byPackage.get(where) ?? 0) + time);
}
const top = (map, n) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${((100 * v) / busy).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n');
const features = [...featureTime]
  .map(([name, time]) => {
    const perRequest = time / result.requests;
    return `${perRequest.toFixed(1).padStart(6)} µs ${((100 * perRequest) / result.cpuUs).toFixed(1).padStart(5)}%  ${name}`;
  })
  .join('\n');
console.log(`\neach feature's own code, per request (share of the CPU per request above):\n${features}`);
console.log(
  `\nby package (share of the busy CPU):\n${top(byPackage, 20)}\n\nby function:\n${top(byFunction, 30)}\n\nprofile: bench/.work/${file}`,
);
