import { execFileSync, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * Builds the service once, unless the build is newer than its sources: the
 * process-level suites (crash, startup, shutdown) run the built output exactly
 * as `npm run start:prod` does.
 */
export default function setup(): void {
  execFileSync(process.execPath, [resolve(__dirname, '../../scripts/build-if-stale.mjs')], { stdio: 'inherit' });
  const postgres = process.env.PETSTORE_TEST_POSTGRES_URL;
  console.log(
    postgres
      ? `PostgreSQL suites: running against ${new URL(postgres).host}`
      : 'PostgreSQL suites: SKIPPED (set PETSTORE_TEST_POSTGRES_URL=postgres://... to run them)',
  );
  const redis = process.env.PETSTORE_TEST_REDIS_URL;
  console.log(
    redis
      ? `Redis fleet suites: running against ${new URL(redis).host}`
      : 'Redis fleet suites: SKIPPED (set PETSTORE_TEST_REDIS_URL=redis://... to run them)',
  );
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    console.log('Redis outage suite: SKIPPED (it starts and stops a redis-server of its own; none is on the PATH)');
  }
}
