import { spawnSync } from 'node:child_process';

/**
 * Says what this run will leave out, and why. (The suites that run the built
 * service build it first when it is stale: test/support/service-process.ts.)
 */
export default function setup(): void {
  // Once per run, not once per project.
  if (process.env.PETSTORE_TEST_SETUP_SAID) return;
  process.env.PETSTORE_TEST_SETUP_SAID = 'yes';
  console.log(`Deadlines: x${process.env.PETSTORE_TEST_TIME_SCALE} for this machine's load (PETSTORE_TEST_TIME_SCALE)`);
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
  const nats = process.env.PETSTORE_TEST_NATS_URL;
  console.log(
    nats
      ? `NATS relay suite: running against ${new URL(nats).host}`
      : 'NATS relay suite (slow): SKIPPED (set PETSTORE_TEST_NATS_URL=nats://... to run it)',
  );
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    console.log('Redis outage suite: SKIPPED (it starts and stops a redis-server of its own; none is on the PATH)');
  }
}
