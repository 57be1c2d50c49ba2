import type { SmtpSink } from '#tests/support/smtp-sink.ts';
import { siteConfig } from '#shared/site-config.ts';
import { expect, test, type Page } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';

let sink: SmtpSink;
test.beforeAll(({ smtpSink }) => {
  sink = smtpSink;
});

const run = Date.now().toString(36);
const KEY = /ORGS(?:-[0-9A-Z]{4}){7}/;
const orgId = (n: number) => `00D5g00000${String(n).padStart(5, '0')}`;

/** A real licence, issued through the trial dialog; its e-mail links to the licence page. */
async function trialKey(page: Page, address: string): Promise<string> {
  await page.goto('/?modal=trial');
  const dialog = page.getByRole('dialog', { name: 'Start your free trial' });
  await dialog.getByLabel('Email address', { exact: true }).fill(address);
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByRole('status')).toBeVisible();
  const mail = await sink.waitForMail({ to: address, subject: /trial licence key/ });
  expect(mail.text).toContain('/licences');
  return KEY.exec(mail.text)?.[0] ?? '';
}

async function useInOrg(page: Page, licenseKey: string, n: number) {
  const res = await page.request.post('/account/v1/licenses/validate', {
    data: { licenseKey, productId: siteConfig.productId, orgId: orgId(n) },
  });
  expect(res.status()).toBe(200);
}

for (const width of [1280, 390]) {
  test(`sign in with the e-mailed code, release an org, sign out (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const address = `page-${width}-${run}@example.com`;
    const key = await trialKey(page, address);
    await useInOrg(page, key, 1);
    await useInOrg(page, key, 2);

    const answer = await page.goto('/licences');
    expect(answer?.headers()['cache-control']).toBe('no-store');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your licences');
    await expectNoAxeViolations(page, `/licences signed out at ${width}`);
    await page.getByLabel('E-mail address').fill(address.toUpperCase());
    await page.getByRole('button', { name: 'E-mail me a code' }).click();
    const codeField = page.getByLabel('Sign-in code');
    await expect(codeField).toBeFocused();
    const mail = await sink.waitForMail({ to: address, subject: /sign-in code/ });
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
    await codeField.fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect(page.getByText(`Signed in as ${address}`)).toBeVisible();
    const cookies = await page.context().cookies();
    const session = cookies.find((cookie) => cookie.name.endsWith('orgsmith-licences'));
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    await expect(page.getByRole('cell', { name: /^00D5g0000000001/ })).toBeVisible();
    await expectNoAxeViolations(page, `/licences signed in at ${width}`);

    await page.getByRole('button', { name: /^Release org 00D5g0000000001/ }).click();
    await expect(page.getByRole('status').filter({ hasText: 'was released' })).toContainText(
      '2 more releases',
    );
    await expect(page.getByRole('cell', { name: /^00D5g0000000001/ })).toHaveCount(0);
    await expect(page.getByRole('cell', { name: /^00D5g0000000002/ })).toBeVisible();
    const reloaded = await page.reload();
    expect(reloaded?.headers()['cache-control']).toBe('no-store');
    await expect(page.getByText(`Signed in as ${address}`)).toBeVisible();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('button', { name: 'E-mail me a code' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('button', { name: 'E-mail me a code' })).toBeVisible();
  });
}

test('the e-mailed link signs in only by its Continue button, and only once', async ({ page }) => {
  const address = `link-${run}@example.com`;
  await trialKey(page, address);
  await page.goto('/licences');
  await page.getByLabel('E-mail address').fill(address);
  await page.getByRole('button', { name: 'E-mail me a code' }).click();
  const mail = await sink.waitForMail({ to: address, subject: /sign-in code/ });
  const link = /(http:\/\/\S+\/licences\/continue\?token=\S+)/.exec(mail.text)?.[1] ?? '';
  expect(link).not.toBe('');

  // Opening the link, as a mail scanner does, signs no one in.
  await page.goto(link);
  await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
  await expectNoAxeViolations(page, '/licences/continue');
  await page.goto('/licences');
  await expect(page.getByRole('button', { name: 'E-mail me a code' })).toBeVisible();

  await page.goto(link);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(`Signed in as ${address}`)).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'E-mail me a code' })).toBeVisible();

  // A second use of the link is refused.
  await page.goto(link);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('This sign-in link does not work')).toBeVisible();
});

test('an unknown address gets the same answer and no e-mail', async ({ page }) => {
  const address = `nobody-page-${run}@example.com`;
  await page.goto('/licences');
  await page.getByLabel('E-mail address').fill(address);
  await page.getByRole('button', { name: 'E-mail me a code' }).click();
  await expect(page.getByLabel('Sign-in code')).toBeFocused();
  await page.waitForTimeout(1500);
  expect(sink.mailsFor({ to: address })).toHaveLength(0);
});
