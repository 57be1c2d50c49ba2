import { defineConfig } from 'vitest/config';
import { sharedModuleGraph } from './tests/support/vitest-shared-graph.ts';

export default defineConfig({
  cacheDir: '.vite-cache',
  test: {
    include: [
      '{app,server,shared,scripts}/**/*.test.{ts,tsx}',
      'tests/api/**/*.test.ts',
      'tests/model/**/*.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Three workers on the 2-core machines: a third keeps both cores busy while another waits on a
    // child process, a timer or a socket (131 s and 1.88 busy cores against 157 s and 1.74 with two,
    // decision 202). Each PGlite takes a few hundred MB; 24 GiB holds them easily.
    maxWorkers: 3,
    // Each worker imports the app once and runs its files one after another in that module graph
    // (decision 200): importing it again for each of 170 files cost two minutes of a four-minute
    // run. No file may keep state in a module another file reads.
    ...sharedModuleGraph,
    // CI also writes a JSON report that scripts/test-summary.ts turns into one closing line.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'reports/vitest.json' },
  },
});
