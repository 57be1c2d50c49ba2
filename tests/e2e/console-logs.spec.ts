import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { ADMIN_ENTRY } from '#server/platform/node-flags.ts';
import type { SmtpSink } from '#tests/support/smtp-sink.ts';
import { expect, test } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';

/**
 * The console's logs page (decision 235): a trial's key e-mail goes out; support finds it by its
 * recipient, resends it with a reason, and the customer gets it again — at 390 px, axe clean. A
 * viewer sees the logs without the buttons.
 */
const exec = promisify(execFile);
test.describe.configure({ timeout: 90_000 });

let sink: SmtpSink;
test.beforeAll(({ smtpSink }) => {
  sink = smtpSink;
});

async function enrol(page: Page, dataDir: string, consoleURL: string, email: string, role: string) {
  const done = await exec(
    process.execPath,
    [ADMIN_ENTRY, 'operators', 'invite', email, '--role', role],
    {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        CONSOLE_ORIGIN: consoleURL,
        LOG_LEVEL: 'warn',
      },
    },
  );
  const link = /https?:\/\/\S+\/console\/enrol\/[A-Za-z0-9_-]{32}/.exec(done.stdout)?.[0];
  if (!link) throw new Error(`no enrolment link in: ${done.stdout}`);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  await page.goto(link);
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Operator console' })).toBeVisible();
}

test('support finds a sent e-mail in the logs and resends it, at 390 px', async ({
  page,
  e2eServer,
}) => {
  const run = Date.now().toString(36);
  const address = `logs-${run}@example.com`;
  await page.goto('/?modal=trial');
  const dialog = page.getByRole('dialog', { name: 'Start your free trial' });
  await dialog.getByLabel('Email address', { exact: true }).fill(address);
  await dialog.locator('button[type=submit]').click();
  const first = await sink.waitForMail({ to: address, subject: /trial licence key/ });

  await page.setViewportSize({ width: 390, height: 900 });
  await enrol(
    page,
    e2eServer.dataDir,
    e2eServer.consoleURL,
    `support-logs-${run}@orgsmith.test`,
    'support',
  );
  await page.getByRole('link', { name: 'Logs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Logs' })).toBeVisible();
  await page.getByLabel('Recipient').fill(address);
  await page.getByRole('button', { name: 'Show e-mails' }).click();
  const row = page.getByTestId('email-log').getByRole('row').filter({ hasText: first.subject });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('sent');
  await expectNoAxeViolations(page, 'logs at 390');
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
    ),
  ).toBe(true);

  // A reason first; then the resend goes out as a new message.
  await row.getByRole('button', { name: /^Resend e-mail/ }).click();
  await expect(page.getByRole('alert')).toContainText('Give a reason');
  await page.getByLabel(/Reason for a retry or resend/).fill('customer lost it, ticket 99');
  await row.getByRole('button', { name: /^Resend e-mail/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'queued again' })).toBeVisible();
  await expect
    .poll(() => sink.mailsFor({ to: address, subject: first.subject }).length, { timeout: 15_000 })
    .toBe(2);
  await expect(page.getByTestId('event-log')).toBeVisible();
  await expectNoAxeViolations(page, 'logs after a resend');
});

test('a viewer reads the logs without retry or resend', async ({ page, e2eServer }) => {
  const run = Date.now().toString(36);
  await enrol(
    page,
    e2eServer.dataDir,
    e2eServer.consoleURL,
    `viewer-logs-${run}@orgsmith.test`,
    'viewer',
  );
  await page.goto(`${e2eServer.consoleURL}/console/logs`);
  await expect(page.getByTestId('email-log')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Resend/ })).toHaveCount(0);
  await expect(page.getByLabel(/Reason for a retry or resend/)).toHaveCount(0);
  await expectNoAxeViolations(page, 'logs as a viewer');
});
