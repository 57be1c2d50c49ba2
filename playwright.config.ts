import { defineConfig, devices } from '@playwright/test';
import { smtpSinkPort } from './tests/e2e/support/smtp-sink.ts';

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;

export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};

/**
 * End-to-end tests run against the production build, started the way a user starts it
 * (`node server/main.ts` after `npm run build`), on a fresh embedded database per run.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  reporter: process.env.CI
    ? [['list'], ['html', { open: 'never' }], ['json', { outputFile: 'reports/playwright.json' }]]
    : 'list',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunchOptions },
    },
  ],
  webServer: {
    command: 'node tests/e2e/support/start-server.ts',
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    // E-mails go to the SMTP sink that specs start (tests/e2e/support/smtp-sink.ts), unless set.
    env: {
      E2E_PORT: String(port),
      SMTP_URL: process.env.SMTP_URL ?? `smtp://127.0.0.1:${smtpSinkPort}`,
    },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
