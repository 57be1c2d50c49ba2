import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/** Prints one closing line for CI from the Vitest and Playwright JSON reports: `tests: N passed, N failed`. */
const vitestReport = z.object({ numPassedTests: z.number(), numFailedTests: z.number() });
const playwrightReport = z.object({
  stats: z.object({ expected: z.number(), unexpected: z.number(), flaky: z.number() }),
});

async function readJson(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return undefined;
  }
}

let passed = 0;
let failed = 0;
const vitest = vitestReport.safeParse(await readJson('reports/vitest.json'));
if (vitest.success) {
  passed += vitest.data.numPassedTests;
  failed += vitest.data.numFailedTests;
  console.log(
    `unit and API: ${vitest.data.numPassedTests} passed, ${vitest.data.numFailedTests} failed`,
  );
} else {
  failed += 1;
  console.log('unit and API: no report (the run did not finish)');
}
const e2e = playwrightReport.safeParse(await readJson('reports/playwright.json'));
if (e2e.success) {
  const ok = e2e.data.stats.expected + e2e.data.stats.flaky;
  passed += ok;
  failed += e2e.data.stats.unexpected;
  console.log(`end-to-end: ${ok} passed, ${e2e.data.stats.unexpected} failed`);
} else {
  failed += 1;
  console.log('end-to-end: no report (the run did not finish)');
}
// The security suite (`npm test`'s last step, issue 17) and the suites CI runs after `npm test` (issue 13): a missing report means the run did not get there.
for (const [label, file] of [
  ['security', 'reports/vitest-security.json'],
  ['faults', 'reports/vitest-faults.json'],
  ['deployment', 'reports/vitest-deploy.json'],
] as const) {
  const report = vitestReport.safeParse(await readJson(file));
  if (!report.success) {
    failed += 1;
    console.log(`${label}: no report (the run did not finish)`);
    continue;
  }
  passed += report.data.numPassedTests;
  failed += report.data.numFailedTests;
  console.log(
    `${label}: ${report.data.numPassedTests} passed, ${report.data.numFailedTests} failed`,
  );
}
console.log(`tests: ${passed} passed, ${failed} failed`);
