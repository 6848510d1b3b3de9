// npm run bench:profile [scenario]: runs the built service under `node --cpu-prof`
// with one benchmark scenario for 5 s, then prints the functions that cost
// the most CPU (self time), grouped by package. The .cpuprofile is kept in
// bench/.work/ for Chrome DevTools.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import sqlite3 from 'sqlite3';

const ROOT = resolve(import.meta.dirname, '..');
const scenario = process.argv[2] ?? 'list';
const KEY = 'bench-key-0123456789abcdef';
const out = join(ROOT, 'bench/.work');
mkdirSync(out, { recursive: true });
const db = join(mkdtempSync(join(tmpdir(), 'petstore-profile-')), 'p.sqlite');
const port = 3900;
const child = spawn(
  process.execPath,
  ['--cpu-prof', `--cpu-prof-dir=${out}`, join(ROOT, 'dist/apps/petstore/src/main.js')],
  {
    env: {
      PATH: process.env.PATH,
      API_KEYS: KEY,
      PORT: String(port),
      DATABASE_URL: `sqlite:${db}`,
      RATE_LIMIT_PER_MINUTE: '0',
      NODE_ENV: 'production',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
const url = `http://127.0.0.1:${port}`;
while (
  !(await fetch(`${url}/health/live`).then(
    (r) => r.ok,
    () => false,
  ))
)
  await new Promise((w) => setTimeout(w, 20));
await new Promise((done) => {
  const conn = new sqlite3.Database(db);
  conn.serialize(() => {
    conn.run('BEGIN');
    for (let i = 0; i < 1000; i++)
      conn.run('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)', [
        `pet-${i}`,
        i,
        ['available', 'pending', 'sold', null][i % 4],
      ]);
    conn.run('COMMIT', () => conn.close(done));
  });
});
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const requests = {
  list: [{ method: 'GET', path: '/v1/pets?limit=20', headers }],
  get: [{ method: 'GET', path: '/v1/pets/7', headers }],
  create: [{ method: 'POST', path: '/v1/pets', headers, body: JSON.stringify({ name: 'p', categoryId: 1 }) }],
}[scenario];
const before = new Set(readdirSync(out));
const result = await autocannon({ url, connections: 50, duration: 5, requests });
console.log(`${scenario}: ${result.requests.average} req/s, p99 ${result.latency.p99} ms`);
await new Promise((done) => {
  child.once('exit', done);
  child.kill('SIGTERM');
});
const file = readdirSync(out).find((name) => name.endsWith('.cpuprofile') && !before.has(name));
const profile = JSON.parse(readFileSync(join(out, file), 'utf8'));
const dt = profile.timeDeltas.reduce((a, b) => a + b, 0) / profile.samples.length;
const self = new Map();
for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + dt);
const byFunction = new Map();
const byPackage = new Map();
let total = 0;
for (const node of profile.nodes) {
  const time = self.get(node.id) ?? 0;
  total += time;
  const { functionName, url: source, lineNumber } = node.callFrame;
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
console.log(
  `\nby package:\n${top(byPackage, 20)}\n\nby function:\n${top(byFunction, 30)}\n\nprofile: bench/.work/${file}`,
);
