import { execFileSync } from 'node:child_process';

/**
 * Builds the service once: the process-level suites (crash, startup, shutdown)
 * run the built output exactly as `npm run start:prod` does.
 */
export default function setup(): void {
  execFileSync('npx', ['nest', 'build', 'petstore'], { stdio: 'inherit' });
  const postgres = process.env.PETSTORE_TEST_POSTGRES_URL;
  console.log(
    postgres
      ? `PostgreSQL suites: running against ${new URL(postgres).host}`
      : 'PostgreSQL suites: SKIPPED (set PETSTORE_TEST_POSTGRES_URL=postgres://... to run them)',
  );
}
