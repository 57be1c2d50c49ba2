import { defineConfig } from 'vitest/config';

/**
 * `npm run test:security` (issue 17): every attack of the security review as a test — oversized
 * bodies, junk URLs, test payments on a public origin, someone else's trial or link. Some files
 * start real server processes on the production build (`npm run test:security` builds first unless
 * build/ is current, decision 162).
 *
 * Two groups (issue 26 item 7): the attacks run two files at a time; then the files that measure a
 * server's memory and latency under attack run alone, on a quiet machine.
 */
const measured = ['tests/security/junk-urls.test.ts', 'tests/security/body-limits.test.ts'];

const shared = {
  testTimeout: 180_000,
  // Above `startInstance`'s own 120 s start-up allowance, so a slow start names itself.
  hookTimeout: 150_000,
};

export default defineConfig({
  cacheDir: '.vite-cache',
  test: {
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'reports/vitest-security.json' },
    projects: [
      {
        test: {
          ...shared,
          name: 'attacks',
          include: ['tests/security/**/*.test.ts'],
          exclude: measured,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'measured',
          include: measured,
          fileParallelism: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
