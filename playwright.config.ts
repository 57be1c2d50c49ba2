import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

/**
 * Debian's Chromium. Its headless shell (package `chromium-headless-shell`, what Playwright itself
 * runs for headless tests) when installed: the same engine without the browser's UI, about a tenth
 * less CPU per test on this machine (decision 201). `CHROMIUM_PATH` chooses another.
 */
const headlessShell = '/usr/bin/chromium-headless-shell';
const chromiumPath =
  process.env.CHROMIUM_PATH ?? (existsSync(headlessShell) ? headlessShell : '/usr/bin/chromium');

export const chromiumLaunchOptions = {
  executablePath: chromiumPath,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
    // Chromium 156 opens two WebUI renderers (the omnibox popup and its "AI mode" variant) for
    // every new window, so for every test's browser context, although a headless window has no
    // omnibox: about 110 ms and a renderer's start-up CPU per test on this machine.
    '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
  ],
};

/**
 * End-to-end tests run against the production build, started the way a user starts it
 * (`npm run serve` after `npm run build`). Each worker starts its own server on a free port with
 * a fresh embedded database and its own SMTP sink (`tests/e2e/support/test.ts`, decision 170), so
 * workers share nothing and the files are spread over them.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  // Three workers on the 2-core machines: while one waits (a page still, an e-mail, a server of its
  // own starting), the others render (264 s and 1.95 busy cores against 289 s and 1.82 with two,
  // decision 202).
  workers: Number(process.env.E2E_WORKERS ?? 3),
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  reporter: process.env.CI
    ? [['list'], ['html', { open: 'never' }], ['json', { outputFile: 'reports/playwright.json' }]]
    : 'list',
  use: {
    // `baseURL` is the worker's own server (tests/e2e/support/test.ts). Recording a trace costs
    // every test DOM snapshots and a screencast; in CI only the retry of a failed test records
    // one (the trace a failure is read from), locally every failure keeps its trace.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunchOptions },
    },
  ],
});
