import { defineConfig } from 'vitest/config';

/**
 * Unit, integration, real-client and component tests: everything beside the code (ARCHITECTURE §7).
 * `*.timing.test.ts` files measure latency while the proxy is under load; `npm test` runs them on
 * their own after the parallel run (TIMING=1), so other test files do not share the two cores.
 */
const timing = process.env.TIMING === '1';
export default defineConfig({
  test: {
    include: timing ? ['src-*/**/*.timing.test.ts'] : ['src-*/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', 'out/**', 'e2e/**', ...(timing ? [] : ['**/*.timing.test.ts'])],
    ...(timing ? { fileParallelism: false } : {}),
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
