import { defineConfig } from 'vitest/config';

/** `npm run test:deploy`: the deployment kit of deploy/ with Debian's nginx (issue 13). */
export default defineConfig({
  cacheDir: '.vite-cache',
  test: {
    include: ['tests/deploy/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    maxWorkers: 1,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'reports/vitest-deploy.json' },
  },
});
