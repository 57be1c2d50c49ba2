import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe.ts';
import { failureMessages, portalLinkNotices, successMessages } from '#shared/contracts/messages.ts';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.ts';

let sink: SmtpSink;
test.beforeAll(async () => {
  sink = await startSmtpSink();
});
test.afterAll(() => sink.close());

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
  await expect(dialog.locator('button[type=submit]')).toBeDisabled();
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

test('an expired or forged portal link leads back to the dialog with an explanation', async ({
  page,
}) => {
  await page.goto('/account/v1/billing-portal?token=forged.token');
  await expect(page).toHaveURL(/\/\?modal=portal-access&portalLink=expired$/);
  const dialog = page.getByRole('dialog', { name: 'Enter your email address' });
  await expect(dialog.getByRole('status')).toHaveText(portalLinkNotices.expired);
  await expect(dialog.getByPlaceholder('Email address')).toBeVisible();
  await expectNoAxeViolations(page, 'portal dialog', { include: 'dialog' });
});
