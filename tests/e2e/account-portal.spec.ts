import type { SmtpSink } from '#tests/support/smtp-sink.ts';
import { openPlanCheckout } from './support/checkout-dialog.ts';
import { expect, test, type Page } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { failureMessages, portalLinkNotices, successMessages } from '#shared/contracts/messages.ts';
import { waitForHydration } from './support/shell.ts';

let sink: SmtpSink;
/** The worker's sink, where its server sends every e-mail. */
test.beforeAll(({ smtpSink }) => {
  sink = smtpSink;
});

const run = Date.now().toString(36);

async function openPortal(page: Page, search = '') {
  await page.goto(`/support?modal=portal-access${search}`);
  const dialog = page.getByRole('dialog', { name: 'Enter your email address' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('the dialog reads as the spec describes and validates the address', async ({ page }) => {
  const dialog = await openPortal(page);
  await expect(dialog.getByRole('heading', { name: 'Enter your email address' })).toBeVisible();
  const input = dialog.getByPlaceholder('Email address');
  await expect(input).toHaveAccessibleName('Email address');
  await expect(input).toHaveAccessibleDescription(
    /email address you gave when you purchased.*bottom of your licence key email.*link to the billing portal.*upgrade, downgrade or cancel your subscription and edit your billing information/,
  );
  const send = dialog.locator('button[type=submit]');
  await expect(send).toHaveText('Send');
  await expect(send).toBeDisabled();

  await input.fill('not-an-address');
  await expect(dialog.getByText('This is not a valid email address.')).toBeVisible();
  await input.fill('');
  await expect(dialog.getByText('You must enter an email address.')).toBeVisible();
  await expect(send).toBeDisabled();
  await input.fill('ok@example.com');
  await expect(dialog.getByText(/You must enter|not a valid/)).toHaveCount(0);
  await expect(send).toBeEnabled();

  await dialog.getByRole('button', { name: 'Close dialog' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page).toHaveURL(/\/support$/);
});

test('an unknown address gets the success text and an e-mail saying no subscription was found', async ({
  page,
}) => {
  const address = `nobody-${run}@example.com`;
  const dialog = await openPortal(page);
  await dialog.getByPlaceholder('Email address').fill(address);
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByRole('status')).toHaveText(successMessages.portalAccess);
  await expect(dialog.locator('button[type=submit]')).toHaveCount(0);
  await expect(dialog.getByRole('region', { name: 'Check your inbox' })).toBeFocused();
  const mail = await sink.waitForMail({ to: address });
  expect(mail.subject).toBe('About managing your Orgsmith subscription');
  expect(mail.text).toContain('we found no subscription for this e-mail address');
});

test('a trial holder learns that trials cannot be managed and how to buy', async ({ page }) => {
  const address = `holder-${run}@example.com`;
  await page.goto('/?modal=trial');
  const trial = page.getByRole('dialog', { name: 'Start your free trial' });
  await trial.getByLabel('Email address', { exact: true }).fill(address);
  await trial.locator('button[type=submit]').click();
  await expect(trial.getByRole('status')).toBeVisible();
  await sink.waitForMail({ to: address, subject: 'Your Orgsmith trial licence key' });

  const dialog = await openPortal(page);
  await dialog.getByPlaceholder('Email address').fill(address.toUpperCase());
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByRole('status')).toHaveText(successMessages.portalAccess);
  const mail = await sink.waitForMail({
    to: address,
    subject: 'About managing your Orgsmith trial',
  });
  expect(mail.text).toContain('Trial licences cannot be managed');
  expect(mail.text).toMatch(/http:\/\/localhost:\d+\/pricing/);
});

test('errors appear in a danger alert; editing clears them', async ({ page }) => {
  const dialog = await openPortal(page);
  let answer = { status: 500, body: '{"Error":"InternalError"}' };
  await page.route('**/account/v1/manage', (route) =>
    route.fulfill({ status: answer.status, contentType: 'application/json', body: answer.body }),
  );
  const input = dialog.getByPlaceholder('Email address');
  await input.fill('err@example.com');
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByRole('alert')).toHaveText(failureMessages.billing);
  await expect(dialog.getByRole('alert')).toHaveAttribute('data-tone', 'danger');

  answer = { status: 429, body: '{"Error":"TooManyRequests"}' };
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByRole('alert')).toContainText('asked for several links in a short time');
  await input.fill('err2@example.com');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
});

test('closing the dialog cancels a request in flight', async ({ page }) => {
  const dialog = await openPortal(page);
  await page.route('**/account/v1/manage', () => {
    // Never answered: only the dialog closing ends this request.
  });
  const failed = page.waitForEvent('requestfailed', (request) =>
    request.url().endsWith('/account/v1/manage'),
  );
  await dialog.getByPlaceholder('Email address').fill('slow@example.com');
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByTestId('typing-indicator')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close dialog' }).click();
  const request = await failed;
  expect(request.failure()?.errorText).toBe('net::ERR_ABORTED');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a forged or old-style portal link leads to the landing page, which explains and offers a new link', async ({
  page,
}) => {
  // The account service's older link form only leads to the landing page (decision 123).
  await page.goto('/account/v1/billing-portal?token=forged.token');
  await expect(page).toHaveURL(/\/billing-portal\?token=forged\.token$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Manage your subscription');
  await expect(page.getByRole('status')).toHaveText(portalLinkNotices.expired);
  await expect(page.getByRole('button', { name: 'Open the billing portal' })).toHaveCount(0);
  await expectNoAxeViolations(page, 'billing-portal landing page, invalid link');
  await waitForHydration(page);
  await page.getByRole('link', { name: 'Request a new link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enter your email address' });
  await expect(dialog.getByPlaceholder('Email address')).toBeVisible();
});

test('the e-mailed link opens a landing page; only its button uses the link, once', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const address = `starter-${run}@example.com`;
  await openPlanCheckout(page, 'size=3', 'Get Starter free', { company: 'Tiny Team Ltd' });
  await expect(page).toHaveURL(/\/billing\/local\/checkout\/lcs_/);
  await page.getByLabel('Email address').fill(address);
  await page.getByRole('button', { name: 'Get my free licence' }).click();
  await expect(page).toHaveURL(/\/checkout-success/);
  const keyMail = await sink.waitForMail({ to: address, subject: /licence key/ });
  const keyHint = /ORGS(?:-[0-9A-Z]{4}){6}-([0-9A-Z]{4})/.exec(keyMail.text)?.[1] ?? 'none';

  const dialog = await openPortal(page);
  await dialog.getByPlaceholder('Email address').fill(address);
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByRole('status')).toHaveText(successMessages.portalAccess);
  const mail = await sink.waitForMail({ to: address, subject: /billing portal/ });
  const link = /http:\/\/localhost:\d+\/billing-portal\?token=\S+/.exec(mail.text)?.[0] ?? '';
  expect(link).not.toBe('');

  // Opening the page (as a mail scanner would, three times) uses nothing.
  for (let visit = 0; visit < 3; visit++) await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Manage your subscription');
  await expect(page.getByText(`Orgsmith Starter · free · key ending in ${keyHint}`)).toBeVisible();
  await expect(
    page.getByText(/The link works once, until \d+ \w+ \d{4}, \d\d:\d\d UTC\./),
  ).toBeVisible();
  await expectNoAxeViolations(page, 'billing-portal landing page');
  const otherTab = await page.context().newPage();
  await otherTab.goto(link);
  await waitForHydration(otherTab);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Open the billing portal' }).click();
  await expect(page).toHaveURL(/\/billing\/local\/portal\/lps_/);

  // The portal's parts (change plan, cancel, invoices) stand apart: a rule and room above each.
  const parts = await page.locator('section.card h3').evaluateAll((headings) =>
    headings.map((heading) => {
      const previous = heading.previousElementSibling?.getBoundingClientRect();
      const style = getComputedStyle(heading);
      return {
        text: heading.textContent ?? '',
        gap: heading.getBoundingClientRect().top - (previous?.bottom ?? 0),
        rule: style.borderTopStyle !== 'none' && parseFloat(style.borderTopWidth) >= 1,
      };
    }),
  );
  expect(parts.map((part) => part.text)).toEqual([
    'Change plan, quantity or billing period',
    'Cancel subscription',
    'Invoices',
  ]);
  for (const part of parts) {
    expect(part.gap, part.text).toBeGreaterThanOrEqual(24);
    expect(part.rule, part.text).toBe(true);
  }

  // The other tab's button finds the link used and says so in place.
  await otherTab.getByRole('button', { name: 'Open the billing portal' }).click();
  await expect(otherTab.getByRole('status')).toHaveText(portalLinkNotices.expired);
  await expect(otherTab.getByRole('link', { name: 'Request a new link' })).toBeVisible();
  await otherTab.close();

  // Used: the page says so instead of offering the button.
  await page.goto(link);
  await expect(page.getByRole('status')).toHaveText(portalLinkNotices.expired);
  await expect(page.getByRole('button', { name: 'Open the billing portal' })).toHaveCount(0);
});

test('the landing page without a link says where links come from', async ({ page }) => {
  await page.goto('/billing-portal');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Manage your subscription');
  await expect(
    page.getByText(/opens the billing portal from the link in your email/),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open the billing portal' })).toHaveCount(0);
  await waitForHydration(page);
  await page.getByRole('link', { name: 'Request a new link' }).click();
  await expect(page.getByRole('dialog', { name: 'Enter your email address' })).toBeVisible();
});
