import { defineConfig } from 'vitest/config';

/**
 * End-to-end suite: the built headless app driven in Debian Chromium through playwright-core.
 * One file at a time in one fork — each spec starts its own server and browser.
 */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    exclude: ['**/node_modules/**', 'e2e/artifacts/**'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
