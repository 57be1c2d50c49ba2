import { defineConfig } from 'vitest/config';
import { sharedModuleGraph } from './tests/support/vitest-shared-graph.ts';

/**
 * `npm run test:security` (issue 17): every attack of the security review as a test — oversized
 * bodies, junk URLs, test payments on a public origin, someone else's trial or link. Some files
 * start real server processes on the production build (`npm run test:security` builds first unless
 * build/ is current, decision 162). Two files at a time, in one module graph per worker
 * (decision 200): the memory a file measures is its own server process's, and the latencies it
 * prints are not asserted.
 */
export default defineConfig({
  cacheDir: '.vite-cache',
  test: {
    include: ['tests/security/**/*.test.ts'],
    testTimeout: 180_000,
    // Above `startInstance`'s own 120 s start-up allowance, so a slow start names itself.
    hookTimeout: 150_000,
    maxWorkers: 3,
    ...sharedModuleGraph,
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'reports/vitest-security.json' },
  },
});
