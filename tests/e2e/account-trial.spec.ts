import type { SmtpSink } from '#tests/support/smtp-sink.ts';
import { expect, test, type Page } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { failureMessages, trialSuccessMessage } from '#shared/contracts/messages.ts';
import { parseLicenceKey } from '#server/licensing/licences/licence-key.ts';

let sink: SmtpSink;
/** The worker's sink, where its server sends every e-mail. */
test.beforeAll(({ smtpSink }) => {
  sink = smtpSink;
});

/** Unique per run: the e2e database lives as long as the server, and trials are once per address. */
const run = Date.now().toString(36);

async function openTrial(page: Page, search = '') {
  await page.goto(`/?modal=trial${search}`);
  const dialog = page.getByRole('dialog', { name: 'Start your free trial' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Email address', { exact: true })).toBeEditable();
  return dialog;
}

test('requesting a trial e-mails a licence key with its expiry and first steps', async ({
  page,
}) => {
  const address = `trial-${run}@example.com`;
  const dialog = await openTrial(page);
  const send = dialog.locator('button[type=submit]');
  await expect(send).toBeDisabled();
  await expect(dialog.getByRole('link', { name: 'End User License Agreement' })).toHaveAttribute(
    'href',
    '/eula/cli',
  );
  await expect(dialog.getByText('By requesting a licence key you accept the')).toBeVisible();

  await dialog.getByLabel('Email address', { exact: true }).fill(address);
  await send.click();
  await expect(dialog.getByRole('status')).toHaveText(trialSuccessMessage(address));
  await expect(dialog.getByRole('status')).toContainText('junk mail folder');
  await expect(send).toHaveCount(0);
  await expect(dialog.getByRole('region', { name: 'Check your inbox' })).toBeFocused();
  await expect(dialog.getByRole('link', { name: 'Download Orgsmith' })).toHaveAttribute(
    'href',
    '/download',
  );

  const mail = await sink.waitForMail({ to: address });
  expect(mail.subject).toBe('Your Orgsmith trial licence key');
  const key = /ORGS(?:-[0-9A-Z]{4}){7}/.exec(mail.text)?.[0] ?? '';
  expect(parseLicenceKey(key)).toEqual({ ok: true, key });
  expect(mail.html).toContain(key);
  expect(mail.text).toMatch(/Valid until: \d{1,2} \w+ \d{4} \(UTC\)/);
  expect(mail.text).toContain('/download');
  expect(mail.text).toContain('https://docs.orgsmith.io');
  expect(mail.html).toMatch(/href="http:\/\/localhost:\d+\/eula\/cli"/);
  expect(mail.text).toContain(`Licence e-mail address: ${address}`);
});

test('a second trial for the same mailbox gets the TrialLicenseAlreadyUsed text', async ({
  page,
}) => {
  const dialog = await openTrial(page);
  await dialog.getByLabel('Email address', { exact: true }).fill(`j.o.e.${run}@gmail.com`);
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByRole('status')).toBeVisible();

  const again = await openTrial(page);
  await again.getByLabel('Email address', { exact: true }).fill(`joe${run}+again@googlemail.com`);
  await again.locator('button[type=submit]').click();
  await expect(again.getByRole('alert')).toHaveText(
    'The email address has already been used for a trial license which has since expired.',
  );
  await expect(again.getByLabel('Email address', { exact: true })).toHaveValue(
    `joe${run}+again@googlemail.com`,
  );
});

test('a ?ref= link fills in the referral code; an unknown code gets the ReferralCodeInvalid text', async ({
  page,
}) => {
  const dialog = await openTrial(page, '&ref=NOT-A-PARTNER');
  const code = dialog.getByLabel('Referral code (optional)');
  await expect(code).toHaveValue('NOT-A-PARTNER');
  const address = `coded-${run}@example.com`;
  await dialog.getByLabel('Email address', { exact: true }).fill(address);
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'The referral code is not valid for this product.',
  );
  // Nothing was written: without the code the same address still gets its trial.
  await code.fill('');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByRole('status')).toHaveText(trialSuccessMessage(address));
  await sink.waitForMail({ to: address });
});

test('validation texts, the licensing default for other errors, and the typing animation', async ({
  page,
}) => {
  const dialog = await openTrial(page);
  const email = dialog.getByLabel('Email address', { exact: true });
  await email.fill('someone@');
  await expect(dialog.getByText('This is not a valid email address.')).toBeVisible();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await email.fill('');
  await expect(dialog.getByText('You must enter an email address.')).toBeVisible();
  await expect(dialog.locator('button[type=submit]')).toBeDisabled();

  let answer = { status: 503, body: '' };
  const waiting: Array<() => void> = [];
  const release = async () => {
    await expect.poll(() => waiting.length).toBe(1);
    waiting.shift()?.();
  };
  await page.route('**/account/v1/licenses/trial?*', async (route) => {
    await new Promise<void>((resolve) => waiting.push(resolve));
    await route.fulfill({
      status: answer.status,
      contentType: 'application/json',
      body: answer.body,
    });
  });
  await email.fill(`error-${run}@example.com`);
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByTestId('typing-indicator')).toBeVisible();
  await release();
  await expect(dialog.getByRole('alert')).toHaveText(failureMessages.licensing);

  answer = { status: 400, body: '{"Error":"ProductIdInvalid"}' };
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByTestId('typing-indicator')).toBeVisible();
  await release();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Something went wrong when calling our licensing service. Please try again in a little while. If the problem persists, please contact our technical support.',
  );
});

test('/trial lands on the dialog and it passes axe', async ({ page }) => {
  await page.goto('/trial');
  const dialog = page.getByRole('dialog', { name: 'Start your free trial' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Email address', { exact: true }).fill('x');
  await expect(dialog.getByText('This is not a valid email address.')).toBeVisible();
  await expectNoAxeViolations(page, 'trial dialog', { include: 'dialog' });
});
