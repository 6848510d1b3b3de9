// `npm audit --omit=dev`, failing on a high or critical advisory. Accepted
// exceptions are listed in ACCEPTED with their reason (and in the README).
// When the registry's advisory endpoint cannot be reached, it says so loudly
// and does not fail: no advisory data is not the same as a vulnerability.
import { spawnSync } from 'node:child_process';

/** GHSA ids accepted on purpose, with why. Keep in step with the README. */
const ACCEPTED = new Map([]);

const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8' });
let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  console.error(`npm audit printed no report:\n${run.stdout}\n${run.stderr}`);
  process.exit(1);
}
if (!report.vulnerabilities) {
  console.warn(
    `npm audit: SKIPPED, the advisory endpoint is not reachable from here (${report.message ?? report.error?.summary ?? 'no report'})`,
  );
  process.exit(0);
}
const blocking = Object.values(report.vulnerabilities).filter(
  (vulnerability) =>
    ['high', 'critical'].includes(vulnerability.severity) &&
    !vulnerability.via.every((via) => typeof via === 'object' && ACCEPTED.has(via.url?.split('/').pop())),
);
const counts = report.metadata?.vulnerabilities ?? {};
console.log(`npm audit --omit=dev: ${JSON.stringify(counts)}`);
if (blocking.length > 0) {
  for (const vulnerability of blocking)
    console.error(`  ${vulnerability.severity}: ${vulnerability.name} (${vulnerability.range})`);
  process.exit(1);
}
