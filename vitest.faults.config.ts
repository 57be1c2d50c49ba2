import { defineConfig } from 'vitest/config';

/**
 * `npm run test:faults`: server processes killed, SMTP and PostgreSQL taken away under load
 * (issue 13). One file at a time: they restart the shared PostgreSQL and bind fixed ports.
 */
export default defineConfig({
  cacheDir: '.vite-cache',
  test: {
    include: ['tests/faults/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    maxWorkers: 1,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'reports/vitest-faults.json' },
  },
});
