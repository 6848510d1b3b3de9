import { resolve } from 'node:path';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// SWC rather than esbuild: TypeORM and Nest need the decorator metadata that esbuild drops.
export default defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  resolve: {
    // The aliases of tsconfig.json, by pattern: a new module under libs/ needs no line here.
    alias: [
      { find: /^@app\/platform\/errors$/, replacement: resolve(__dirname, 'libs/platform/src/errors') },
      { find: /^@app\/([^/]+)$/, replacement: resolve(__dirname, 'libs/$1/src') },
      { find: /^@test\/(.+)$/, replacement: resolve(__dirname, 'test/$1') },
    ],
  },
  test: {
    include: ['{apps,libs,test}/**/*.spec.ts', '{libs,test}/**/*.e2e-spec.ts'],
    exclude: ['**/node_modules/**', 'test/fixtures/**'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
