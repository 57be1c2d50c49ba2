import type { SmtpSink } from '#tests/support/smtp-sink.ts';
import { expect, test, type Page } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { lostKeyMessages } from '#shared/contracts/licence-recovery.ts';
import { siteConfig } from '#shared/site-config.ts';

let sink: SmtpSink;
/** The worker's sink, where its server sends every e-mail. */
test.beforeAll(({ smtpSink }) => {
  sink = smtpSink;
});

const run = Date.now().toString(36);
const KEY = /ORGS(?:-[0-9A-Z]{4}){7}/;

/** A real licence, issued the way visitors get one: through the trial dialog. */
async function trialKey(page: Page, address: string): Promise<string> {
  await page.goto('/?modal=trial');
  const dialog = page.getByRole('dialog', { name: 'Start your free trial' });
  await dialog.getByLabel('Email address', { exact: true }).fill(address);
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByRole('status')).toBeVisible();
  const mail = await sink.waitForMail({ to: address, subject: /trial licence key/ });
  return KEY.exec(mail.text)?.[0] ?? '';
}

async function validate(page: Page, licenseKey: string) {
  const res = await page.request.post('/account/v1/licenses/validate', {
    data: { licenseKey, productId: siteConfig.productId },
  });
  expect(res.status()).toBe(200);
  const body: unknown = await res.json();
  return body;
}

function lostKeyForm(page: Page) {
  return page.getByRole('region', { name: lostKeyMessages.heading });
}

test('a lost key is replaced through the e-mailed link; the old key stops working', async ({
  page,
}) => {
  const address = `lost-${run}@example.com`;
  const oldKey = await trialKey(page, address);
  expect(await validate(page, oldKey)).toMatchObject({ valid: true });

  await page.goto('/support');
  const form = lostKeyForm(page);
  await expect(form).toBeVisible();
  const input = form.getByLabel('Email address', { exact: true });
  const send = form.getByRole('button', { name: 'Send' });
  await input.fill('not-an-address');
  await expect(form.getByText('This is not a valid email address.')).toBeVisible();
  await expect(send).toBeDisabled();
  await input.fill(address);
  await send.click();
  await expect(form.getByRole('status')).toHaveText(lostKeyMessages.success);
  await expect(input).toHaveCount(0);
  await expect(form.getByRole('region', { name: 'Check your inbox' })).toBeFocused();

  const mail = await sink.waitForMail({ to: address, subject: 'Your Orgsmith licence key' });
  expect(mail.text).toContain(`key ending in ${oldKey.slice(-4)}`);
  const link = /(http:\/\/\S+\/replace-licence-key\?token=\S+)/.exec(mail.text)?.[1] ?? '';
  expect(link).not.toBe('');

  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Replace your licence key');
  await page.getByRole('button', { name: 'Replace my licence key' }).click();
  await expect(page.getByRole('status')).toContainText('your new licence key is on its way');

  const replaced = await sink.waitForMail({
    to: address,
    subject: 'Your new Orgsmith licence key',
  });
  const newKey = KEY.exec(replaced.text)?.[0] ?? '';
  expect(newKey).not.toBe(oldKey);
  expect(replaced.text).toContain('/account/v1/access-tokens');
  expect(await validate(page, newKey)).toMatchObject({ valid: true, code: 'VALID' });
  // Validations may reuse a licence read for up to 5 seconds (LICENSE_VALIDATION_CACHE_SECONDS).
  await expect
    .poll(async () => validate(page, oldKey), { timeout: 10_000, intervals: [1000] })
    .toMatchObject({ valid: false, code: 'NOT_FOUND' });

  // The link works once: opened again, the page says so before anything is clicked.
  await page.goto(link);
  await expect(page.getByRole('alert')).toHaveText(lostKeyMessages.linkInvalid);
  await expect(page.getByRole('button', { name: 'Replace my licence key' })).toHaveCount(0);
  await expect(lostKeyForm(page)).toBeVisible();
});

test('an unknown address gets the same answer and no e-mail (checkout-success page)', async ({
  page,
}) => {
  const address = `nobody-${run}@example.com`;
  await page.goto('/checkout-success');
  const form = lostKeyForm(page);
  await form.getByLabel('Email address', { exact: true }).fill(address);
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(form.getByRole('status')).toHaveText(lostKeyMessages.success);
  // A mistyped address: back to the form, the address kept and focused.
  await form.getByRole('button', { name: 'Use another address' }).click();
  await expect(form.getByLabel('Email address', { exact: true })).toBeFocused();
  await expect(form.getByLabel('Email address', { exact: true })).toHaveValue(address);
  await page.waitForTimeout(1500);
  expect(sink.mailsFor({ to: address })).toHaveLength(0);
});

test('the lost-key form and the replacement page pass axe', async ({ page }) => {
  for (const path of ['/support', '/checkout-success', '/replace-licence-key?token=x']) {
    await page.goto(path);
    await expect(
      lostKeyForm(page).or(page.getByRole('button', { name: 'Replace my licence key' })),
    ).toBeVisible();
    await expectNoAxeViolations(page, path);
  }
});

async function makeToken(page: Page, licenseKey: string, name: string) {
  const res = await page.request.post('/account/v1/access-tokens', {
    data: { licenseKey, name },
  });
  expect(res.status()).toBe(201);
  const body: unknown = await res.json();
  const token = typeof body === 'object' && body !== null && 'token' in body ? body.token : '';
  return typeof token === 'string' ? token : '';
}

async function validateToken(page: Page, token: string) {
  const res = await page.request.post('/account/v1/licenses/validate', {
    data: { productId: siteConfig.productId },
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
  const body: unknown = await res.json();
  return body;
}

test('a token made with the key is e-mailed; replacing the key ends it unless kept', async ({
  page,
}) => {
  const address = `tokens-${run}@example.com`;
  const key = await trialKey(page, address);
  const own = await makeToken(page, key, 'GitHub Actions');
  const stranger = await makeToken(page, key, 'backup job');

  const mail = await sink.waitForMail(
    (received) =>
      received.to.includes(address) &&
      received.subject === 'A new access token for your Orgsmith licence' &&
      received.text.includes('backup job'),
  );
  expect(mail.text).toContain('Token name: "backup job"');
  const link = /(http:\/\/\S+\/replace-licence-key\?token=\S+)/.exec(mail.text)?.[1] ?? '';
  expect(link).not.toBe('');

  await page.goto(link);
  const tokens = page.getByRole('group', { name: lostKeyMessages.tokensLegend });
  const keepOwn = tokens.getByRole('checkbox', {
    name: lostKeyMessages.keepToken('GitHub Actions'),
  });
  const keepStranger = tokens.getByRole('checkbox', {
    name: lostKeyMessages.keepToken('backup job'),
  });
  await expect(keepOwn).not.toBeChecked();
  await expect(keepStranger).not.toBeChecked();
  await expectNoAxeViolations(page, '/replace-licence-key with tokens');
  // By keyboard: Tab reaches the boxes, Space ticks one.
  await keepOwn.focus();
  await page.keyboard.press('Space');
  await expect(keepOwn).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(keepStranger).toBeFocused();
  await page.getByRole('button', { name: 'Replace my licence key' }).click();
  await expect(page.getByRole('status')).toContainText('your new licence key is on its way');
  await expect(page.getByTestId('success-view')).toContainText(
    '1 access token ended with the old key. 1 access token you kept works on.',
  );

  await expect
    .poll(async () => validateToken(page, stranger), { timeout: 10_000, intervals: [1000] })
    .toMatchObject({ valid: false, code: 'NOT_FOUND' });
  expect(await validateToken(page, own)).toMatchObject({ valid: true, code: 'VALID' });
});
