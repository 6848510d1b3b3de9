// npm run bench:profile [scenario]: runs the built service under `node --cpu-prof`
// with one benchmark scenario for 5 s, then prints the functions that cost
// the most CPU (self time), grouped by package. The .cpuprofile is kept in
// bench/.work/ for Chrome DevTools. BENCH_TRACING=<ratio>: with tracing on,
// that share of the traces sampled, exported to a sink (otlp-sink.mjs), and
// the CPU of tracing's own code per request (the SDK, libs/tracing, its
// pipeline step and SQL spans): a figure this machine's spread between two
// processes of one build (up to 15 % of the total) does not blur.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { load, removeOnInterrupt, requestsOf, seed, serviceTarget, start, startOtlpSink, stop } from './harness.mjs';

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
const proc = await start(profiled, db, { LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', ...tracing });
await seed(db, 1000);
const before = new Set(readdirSync(out));
const result = await load(proc, scenario, 5);
console.log(`${scenario}: ${result.rps} req/s, ${result.cpuUs.toFixed(0)} µs CPU/request, p99 ${result.p99} ms`);
await stop(proc);
await sink?.stop();
rmSync(work, { recursive: true, force: true });
const file = readdirSync(out).find((name) => name.endsWith('.cpuprofile') && !before.has(name));
const profile = JSON.parse(readFileSync(join(out, file), 'utf8'));
const dt = profile.timeDeltas.reduce((a, b) => a + b, 0) / profile.samples.length;
const self = new Map();
for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + dt);
const byFunction = new Map();
const byPackage = new Map();
let total = 0;
let tracingTime = 0;
let busy = 0;
const TRACING_CODE = /node_modules\/@opentelemetry\/|\/dist\/libs\/tracing\/|\/trace-request\.js$|\/sql-spans\.js$/;
for (const node of profile.nodes) {
  const time = self.get(node.id) ?? 0;
  total += time;
  const { functionName, url: source, lineNumber } = node.callFrame;
  if (TRACING_CODE.test(source)) tracingTime += time;
  if (functionName !== '(idle)') busy += time;
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
    .map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n');
if (ratio !== undefined) {
  const requests = result.rps * 5;
  console.log(
    `\ntracing's own code: ${(tracingTime / requests).toFixed(1)} µs per request, ${((100 * tracingTime) / busy).toFixed(1)} % of the busy CPU`,
  );
}
console.log(
  `\nby package:\n${top(byPackage, 20)}\n\nby function:\n${top(byFunction, 30)}\n\nprofile: bench/.work/${file}`,
);
