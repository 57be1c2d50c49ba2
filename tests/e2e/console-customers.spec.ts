import { siteConfig } from '#shared/site-config.ts';
import type { SmtpSink } from '#tests/support/smtp-sink.ts';
import { expect as baseExpect, test, type Page } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { enrolOperator } from './support/console.ts';

/**
 * The console's customer pages (decision 231) in Chromium: a customer starts a trial on the
 * public site and uses the key in an org; an owner signed in with a passkey finds them with the
 * one search box, opens their story, suspends the licence with a reason (validation then answers
 * DEACTIVATED) and reinstates it — at 1280 and 390 px, axe on every page. A viewer reads the same
 * story without a single action.
 */
test.describe.configure({ timeout: 180_000 });
// Passkey ceremonies and a production server per worker on a busy two-core machine.
const expect = baseExpect.configure({ timeout: 15_000 });
/** Validations are cached for up to `LICENSE_VALIDATION_CACHE_SECONDS` (5 s by default). */
const cacheWindow = { timeout: 20_000, intervals: [1_000] };

let sink: SmtpSink;
test.beforeAll(({ smtpSink }) => {
  sink = smtpSink;
});

const run = Date.now().toString(36);
const KEY = /ORGS(?:-[0-9A-Z]{4}){7}/;
const orgId = (n: number) => `00D5g00000${String(n).padStart(5, '0')}`;

/** A real licence, issued through the public trial dialog. */
async function trialKey(page: Page, address: string): Promise<string> {
  await page.goto('/?modal=trial');
  const dialog = page.getByRole('dialog', { name: 'Start your free trial' });
  await dialog.getByLabel('Email address', { exact: true }).fill(address);
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByRole('status')).toBeVisible();
  const mail = await sink.waitForMail({ to: address, subject: /trial licence key/ });
  return KEY.exec(mail.text)?.[0] ?? '';
}

async function validate(page: Page, licenseKey: string, n = 1): Promise<string> {
  const res = await page.request.post('/account/v1/licenses/validate', {
    data: { licenseKey, productId: siteConfig.productId, orgId: orgId(n) },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { code: string }).code;
}

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

for (const width of [1280, 390]) {
  test(`an owner finds a customer, reads the story, suspends and reinstates the licence at ${width} px`, async ({
    page,
    e2eServer,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    const address = `story-${width}-${run}@example.com`;
    const key = await trialKey(page, address);
    expect(await validate(page, key)).toBe('VALID');

    await enrolOperator(page, e2eServer, `support-c${width}@orgsmith.test`, 'support');
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Customers' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
    const search = page.getByRole('searchbox', { name: 'Search' });

    // Nothing typed: said, nothing sent. Something that names no one: said too.
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('Type what the ticket names');
    await search.fill('zz-nobody-at-all');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByText('Nothing found for')).toBeVisible();
    await expectNoAxeViolations(page, `customers search at ${width}`);

    // The address in another spelling finds the customer.
    await search.fill(address.toUpperCase());
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const hit = page.getByRole('link', { name: address });
    await expect(hit).toBeVisible();
    expect(await noSidewaysScroll(page)).toBe(true);
    await hit.click();

    await expect(page.getByRole('heading', { level: 1, name: address })).toBeVisible();
    const licence = page.getByRole('article');
    await expect(licence).toContainText('valid');
    await expect(licence.getByRole('rowheader', { name: orgId(1) })).toBeVisible();
    await expect(page.getByRole('table', { name: 'E-mails to this customer' })).toContainText(
      'trial licence key',
    );
    await expectNoAxeViolations(page, `customer story at ${width}`);
    expect(await noSidewaysScroll(page)).toBe(true);

    // Support suspends: the reason is required; the server's answer is shown; the story reloads.
    // Revoking for good is the owner's: support is not offered it.
    await expect(licence.locator('summary', { hasText: /^Revoke of/ })).toHaveCount(0);
    await licence.locator('summary', { hasText: /^Suspend of/ }).click();
    const form = licence.locator('details[open] form');
    await form.getByRole('button', { name: 'Suspend', exact: true }).click();
    await expect(form.getByRole('alert')).toContainText('Give a reason');
    expect(await validate(page, key)).toBe('VALID');
    await form.getByLabel('Reason (required)').fill(`ticket ${width}: key posted publicly`);
    await form.getByRole('button', { name: 'Suspend', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Suspended' })).toBeVisible();
    await expect(licence.getByRole('heading', { level: 3 })).toContainText('suspended');
    await expect(licence.getByText('Suspended', { exact: true })).toBeVisible();
    await expect(page.getByRole('table', { name: /audit|newest first/ })).toContainText(
      `ticket ${width}: key posted publicly`,
    );
    await expect.poll(() => validate(page, key), cacheWindow).toBe('DEACTIVATED');
    await expectNoAxeViolations(page, `customer story after an action at ${width}`);

    // Reinstate, with a reason too.
    await licence.getByText('Reinstate', { exact: false }).first().click();
    const back = licence.locator('details[open] form');
    await back.getByLabel('Reason (required)').fill('wrong customer');
    await back.getByRole('button', { name: 'Reinstate' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Reinstated' })).toBeVisible();
    await expect.poll(() => validate(page, key), cacheWindow).toBe('VALID');
  });
}

test('a viewer reads a customer story and sees no action', async ({ page, e2eServer }) => {
  const address = `viewer-story-${run}@example.com`;
  const key = await trialKey(page, address);
  expect(await validate(page, key)).toBe('VALID');
  await enrolOperator(page, e2eServer, 'viewer-c@orgsmith.test', 'viewer');
  await page.goto(`${e2eServer.consoleURL}/console/customers?q=${encodeURIComponent(address)}`);
  await page.getByRole('link', { name: address }).click();
  await expect(page.getByRole('heading', { level: 1, name: address })).toBeVisible();
  await expect(page.getByRole('article')).toContainText('valid');
  await expect(page.getByRole('heading', { name: 'Actions' })).toHaveCount(0);
  await expect(page.locator('summary', { hasText: /^(Suspend|Revoke) of/ })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Reason (required)' })).toHaveCount(0);
  // The audit trail is for roles that may read the audit log.
  await expect(page.getByRole('heading', { name: 'Audit trail' })).toHaveCount(0);
  await expectNoAxeViolations(page, 'customer story as a viewer');
});
