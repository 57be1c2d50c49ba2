import { expect, type Page } from '@playwright/test';
import { siteConfig } from '#shared/site-config.ts';
import type { SmtpSink } from '#tests/support/smtp-sink.ts';
import { waitForHydration } from './shell.ts';

/** The licence page's steps as a customer takes them (decisions 229, 236), for the specs. */

export const KEY = /ORGS(?:-[0-9A-Z]{4}){7}/;

/** A trial licence issued through the trial dialog: its key. */
export async function trialKey(page: Page, sink: SmtpSink, address: string): Promise<string> {
  await page.goto('/?modal=trial');
  const dialog = page.getByRole('dialog', { name: 'Start your free trial' });
  await dialog.getByLabel('Email address', { exact: true }).fill(address);
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByRole('status')).toBeVisible();
  const mail = await sink.waitForMail({ to: address, subject: /trial licence key/ });
  return KEY.exec(mail.text)?.[0] ?? '';
}

/** Signs in on /licences with the e-mailed code. */
export async function signInToLicences(page: Page, sink: SmtpSink, address: string) {
  await page.goto('/licences');
  await waitForHydration(page);
  await page.getByLabel('E-mail address').fill(address);
  await page.getByRole('button', { name: 'E-mail me a code' }).click();
  const codeField = page.getByLabel('Sign-in code');
  await expect(codeField).toBeFocused();
  const mail = await sink.waitForMail({ to: address, subject: /sign-in code/ });
  await codeField.fill(/\b(\d{6})\b/.exec(mail.text)?.[1] ?? '');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`Signed in as ${address}`)).toBeVisible();
}

/** What POST /account/v1/licenses/validate answers for a key or an access token. */
export async function validationCode(page: Page, keyOrToken: string): Promise<string> {
  const byToken = keyOrToken.startsWith('orgsmith_at_');
  const response = await page.request.post('/account/v1/licenses/validate', {
    headers: byToken ? { Authorization: `Bearer ${keyOrToken}` } : {},
    data: {
      ...(byToken ? {} : { licenseKey: keyOrToken }),
      productId: siteConfig.productId,
      orgId: '00D5g0000000001',
    },
  });
  const body: unknown = await response.json();
  const code = typeof body === 'object' && body !== null ? Reflect.get(body, 'code') : undefined;
  return typeof code === 'string' ? code : `no code in ${JSON.stringify(body)}`;
}

/**
 * Orders Enterprise yearly by invoice on the pricing page and confirms it by the e-mailed link:
 * a licence on a subscription paid by invoice (the e2e server trusts invoice orders).
 */
export async function orderByInvoice(page: Page, sink: SmtpSink, email: string, company: string) {
  await page.goto('/pricing?plan=Enterprise&period=yearly&currency=EUR');
  await waitForHydration(page);
  await page
    .getByRole('link', { name: 'Buying for a company? Get a quote or pay by invoice' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Get a quote or pay by invoice' });
  await dialog.getByRole('radio', { name: 'An order paid by invoice (net 30)' }).check();
  await dialog.getByLabel('Company name').fill(company);
  await dialog.getByLabel('Billing email address').fill(email);
  await dialog.getByLabel('Street and number').fill('Hauptstraße 1');
  await dialog.getByLabel('Postal code').fill('10115');
  await dialog.getByLabel('City').fill('Berlin');
  await dialog.getByLabel('Country').selectOption('DE');
  await dialog.getByRole('button', { name: 'Order Enterprise by invoice' }).click();
  // Placing the order writes to the database and queues an e-mail: on a machine whose cores are
  // all busy (CI) its answer can take longer than the default 5 s.
  await expect(dialog.getByRole('status')).toContainText('Check your inbox to confirm', {
    timeout: 15_000,
  });
  const mail = await sink.waitForMail({ to: email, subject: /Confirm your Orgsmith order/ });
  const link = /https?:\/\/\S+\/invoice-order\?token=[\w-]+/.exec(mail.text)?.[0] ?? '';
  expect(link).not.toBe('');
  await page.goto(link);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Confirm the order' }).click();
  await expect(page.getByRole('status')).toContainText(
    `Your licence key is on its way to ${email}`,
  );
}

/** On a signed-in /licences page: asks for `seats` seats of the (only) invoice subscription. */
export async function requestSeats(page: Page, seats: number, message: string) {
  const billing = page.getByRole('region', { name: 'Billing' });
  const form = billing.getByRole('group', { name: 'Request a change' });
  await form.getByLabel('What to change').selectOption('seats');
  await form.getByLabel('Seats', { exact: true }).fill(String(seats));
  await form.getByLabel('Message (optional)').fill(message);
  await form.getByRole('button', { name: 'Send request' }).click();
  await expect(billing).toContainText('Your request was sent. We will answer by e-mail.');
}
