import type { SmtpSink } from '#tests/support/smtp-sink.ts';
import { expect, test } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { enrolOperator } from './support/console.ts';

/**
 * The console's logs page (decision 235): a trial's key e-mail goes out; support finds it by its
 * recipient, resends it with a reason, and the customer gets it again — at 390 px, axe clean. A
 * viewer sees the logs without the buttons.
 */
test.describe.configure({ timeout: 90_000 });

let sink: SmtpSink;
test.beforeAll(({ smtpSink }) => {
  sink = smtpSink;
});

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
  await enrolOperator(page, e2eServer, `support-logs-${run}@orgsmith.test`, 'support');
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
  await enrolOperator(page, e2eServer, `viewer-logs-${run}@orgsmith.test`, 'viewer');
  await page.goto(`${e2eServer.consoleURL}/console/logs`);
  await expect(page.getByTestId('email-log')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Resend/ })).toHaveCount(0);
  await expect(page.getByLabel(/Reason for a retry or resend/)).toHaveCount(0);
  await expectNoAxeViolations(page, 'logs as a viewer');
});
