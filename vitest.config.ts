import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';
import { timeScale } from './test/support/wait-for';

const EXCLUDED = ['**/node_modules/**', 'test/fixtures/**'];
/** Slow suites that run alone: the fleet's subscribers within a second (issue 53). */
const ALONE = ['test/slow/fleet-contention.e2e-spec.ts'];

// One value for every test process of the run: the deadlines of a loaded machine stretch, none of them shrinks.
const scale = timeScale();

// SWC rather than esbuild: TypeORM and Nest need the decorator metadata that esbuild drops.
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  resolve: {
    // The aliases of tsconfig.json, by pattern: a new module under libs/ needs no line here.
    alias: [
      {
        find: /^@app\/platform\/(domain|errors|ports|testing)$/,
        replacement: resolve(__dirname, 'libs/platform/src/$1'),
      },
      { find: /^@app\/([^/]+)$/, replacement: resolve(__dirname, 'libs/$1/src') },
      { find: /^@test\/(.+)$/, replacement: resolve(__dirname, 'test/$1') },
    ],
  },
  test: {
    exclude: EXCLUDED,
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    // A worker imports the application's modules once for all the files it runs, not once per file: the files share
    // no state a test changes (no module mocks, fake timers or writes to the environment; each builds the application
    // it tests), and `npm test` takes half the time (the workers' import time from 113 s to 9 s). For every project:
    // vitest has one pool.
    isolate: false,
    // The e2e suites mostly wait on sockets and child processes: two at a time even on two cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000 * scale,
    hookTimeout: 60_000 * scale,
    // `npm test` runs the first, `npm run test:slow` the other two; `npx vitest run <file>` finds a file in any.
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['{apps,libs,test}/**/*.spec.ts', '{libs,test}/**/*.e2e-spec.ts'],
          exclude: [...EXCLUDED, 'test/slow/**'],
        },
      },
      // Suites that start many processes, kill them round after round, or copy the repository.
      {
        extends: true,
        test: { name: 'slow', include: ['test/slow/**/*.e2e-spec.ts'], exclude: [...EXCLUDED, ...ALONE] },
      },
      // After them (a group of its own), the suite whose verdict is a delay under the load it makes itself: alone, so
      // that another suite's processes and PostgreSQL transactions are not counted in it.
      { extends: true, test: { name: 'slow-alone', include: ALONE, sequence: { groupOrder: 1 } } },
    ],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
