import { defineConfig } from 'vitest/config';

export default defineConfig({
  cacheDir: '.vite-cache',
  test: {
    include: ['{app,server,shared,scripts}/**/*.test.{ts,tsx}', 'tests/api/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // PGlite instances are memory-hungry; two workers suit the 2-core machines.
    maxWorkers: 2,
    // CI also writes a JSON report that scripts/test-summary.ts turns into one closing line.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'reports/vitest.json' },
  },
});
