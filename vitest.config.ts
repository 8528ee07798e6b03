import { defineConfig } from 'vitest/config';

/** Unit, integration, real-client and component tests: everything beside the code (ARCHITECTURE §7). */
export default defineConfig({
  test: {
    include: ['src-*/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', 'out/**', 'e2e/**'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
