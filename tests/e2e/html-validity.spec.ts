import { execFile } from 'node:child_process';
import { openPlanCheckout } from './support/checkout-dialog.ts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { pages } from '#app/pages.ts';
import type { SmtpSink } from '#tests/support/smtp-sink.ts';
import { expect, test, type Locator, type Page } from './support/test.ts';
import { waitForHydration } from './support/shell.ts';

/**
 * Every page, the 404 page and every dialog state pass the W3C Nu HTML checker (`vnu-jar`) with
 * no error. Pages are checked as the server sends them; dialog states as the browser shows them
 * (the live DOM, serialized). One JVM checks all documents at the end.
 */
const vnuJar = path.resolve('node_modules/vnu-jar/build/dist/vnu.jar');

const vnuReport = z.object({
  messages: z.array(
    z.object({
      type: z.string(),
      subType: z.string().optional(),
      url: z.string().optional(),
      message: z.string(),
      extract: z.string().optional(),
    }),
  ),
});

let sink: SmtpSink;
let dir = '';
const documents = new Map<string, string>();

test.beforeAll(async ({ smtpSink }) => {
  sink = smtpSink;
  dir = await mkdtemp(path.join(tmpdir(), 'orgsmith-vnu-'));
});
test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function liveDocument(page: Page): Promise<string> {
  return page.evaluate(() => `<!DOCTYPE html>\n${document.documentElement.outerHTML}`);
}

async function openDialog(page: Page, modal: string): Promise<Locator> {
  await page.goto(`/?modal=${modal}`);
  await waitForHydration(page);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe.configure({ mode: 'serial' });

test('collects every page as the server sends it', async ({ request }) => {
  const paths = [
    ...Object.values(pages).map((page) => page.path),
    '/billing-portal?token=forged.token',
    '/pricing?size=25&period=yearly&currency=EUR',
    '/no-such-page',
  ];
  for (const pagePath of paths) {
    const response = await request.get(pagePath);
    expect(response.status(), pagePath).toBe(pagePath === '/no-such-page' ? 404 : 200);
    documents.set(`page ${pagePath}`, await response.text());
  }
});

test('collects every dialog state as the browser shows it', async ({ page }) => {
  test.setTimeout(60_000);
  const run = Date.now();

  // Contact: open, touched with errors, sent.
  let dialog = await openDialog(page, 'contact');
  documents.set('contact dialog open', await liveDocument(page));
  const name = dialog.getByLabel('Name', { exact: true });
  await name.fill('J');
  await name.fill('');
  await dialog.getByLabel('Email address', { exact: true }).fill('jane@');
  await expect(dialog.getByText('You must enter your name.')).toBeVisible();
  documents.set('contact dialog with errors', await liveDocument(page));
  await name.fill('Jane Doe');
  await dialog.getByLabel('Email address', { exact: true }).fill(`jane.${run}@example.com`);
  await dialog.getByLabel('Message', { exact: true }).fill('Checking the markup.');
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByRole('alert').or(dialog.getByRole('status'))).not.toHaveCount(0);
  documents.set('contact dialog sent', await liveDocument(page));

  // Manage your subscription: open, invalid, sent.
  dialog = await openDialog(page, 'portal-access');
  documents.set('portal dialog open', await liveDocument(page));
  const portalEmail = dialog.getByLabel('Email address', { exact: true });
  await portalEmail.fill('nobody@');
  await expect(portalEmail).toHaveAttribute('aria-invalid', 'true');
  documents.set('portal dialog with an error', await liveDocument(page));
  await portalEmail.fill(`buyer.${run}@example.com`);
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByRole('alert').or(dialog.getByRole('status'))).not.toHaveCount(0);
  documents.set('portal dialog sent', await liveDocument(page));

  // Trial: open, invalid, issued.
  dialog = await openDialog(page, 'trial');
  documents.set('trial dialog open', await liveDocument(page));
  const trialEmail = dialog.getByLabel('Email address', { exact: true });
  await trialEmail.fill('trial@');
  await expect(trialEmail).toHaveAttribute('aria-invalid', 'true');
  documents.set('trial dialog with an error', await liveDocument(page));
  await trialEmail.fill(`trial.${run}@example.com`);
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByRole('alert').or(dialog.getByRole('status'))).not.toHaveCount(0);
  documents.set('trial dialog issued', await liveDocument(page));
});

test('collects the billing-portal landing page of a live link', async ({ page, request }) => {
  const address = `portal.${Date.now()}@example.com`;
  await openPlanCheckout(page, 'size=3', 'Get Starter free', { company: 'Tiny Team Ltd' });
  // The test provider's checkout page (decision 163), and its cookie page for a visitor without one.
  await expect(page).toHaveURL(/\/billing\/local\/checkout\//);
  documents.set('local checkout page', await (await page.request.get(page.url())).text());
  documents.set('local cookie page', await (await request.get(page.url())).text());
  await page.getByLabel('Email address').fill(address);
  await page.getByRole('button', { name: 'Get my free licence' }).click();
  await expect(page).toHaveURL(/\/checkout-success/);
  const dialog = await openDialog(page, 'portal-access');
  await dialog.getByLabel('Email address', { exact: true }).fill(address);
  await dialog.locator('button[type=submit]').click();
  const mail = await sink.waitForMail({ to: address, subject: /billing portal/ });
  const link = /http:\/\/localhost:\d+(\/billing-portal\?token=\S+)/.exec(mail.text)?.[1] ?? '';
  expect(link).not.toBe('');
  const response = await request.get(link);
  expect(await response.text()).toContain('Open the billing portal</button>');
  documents.set('billing-portal landing page', await response.text());
});

test('collects the quote dialog, its accept page, an invoice order and the invoice page', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const address = `quote.${Date.now()}@example.com`;
  const dialog = await (async () => {
    await page.goto('/pricing?size=25&period=yearly&currency=EUR&modal=quote');
    await waitForHydration(page);
    const found = page.getByRole('dialog');
    await expect(found).toBeVisible();
    return found;
  })();
  documents.set('quote dialog open', await liveDocument(page));
  await dialog.getByLabel('VAT ID (optional)').fill('12345');
  await expect(dialog.getByText('You must enter your company name.')).toBeVisible();
  documents.set('quote dialog with errors', await liveDocument(page));
  await dialog.getByLabel('Country').selectOption('DE');
  await dialog.getByLabel('Company name').fill('Markup Check GmbH');
  await dialog.getByLabel('Billing email address').fill(address);
  await dialog.getByLabel('Street and number').fill('Hauptstraße 1');
  await dialog.getByLabel('Postal code').fill('10115');
  await dialog.getByLabel('City').fill('Berlin');
  await dialog.getByLabel('VAT ID (optional)').fill('DE123456789');
  await dialog.getByLabel('Purchase order (optional)').fill('PO-1');
  await expect(dialog.getByText('VAT 19 %')).toBeVisible();
  documents.set('quote dialog filled, with VAT', await liveDocument(page));
  await dialog.getByRole('button', { name: 'Get the quote' }).click();
  await expect(dialog.getByRole('status')).toContainText(/Q-\d{4}-\d{4}/);
  documents.set('quote dialog sent', await liveDocument(page));

  const accept =
    (await dialog.getByRole('link', { name: 'Accept this quote' }).getAttribute('href')) ?? '';
  documents.set('quote accept page', await (await request.get(accept)).text());
  await page.goto(accept);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Order Enterprise and send the invoice' }).click();
  await expect(page.getByRole('status')).toContainText('Check your inbox to confirm');
  documents.set('quote ordered by invoice, waiting for confirmation', await liveDocument(page));
  // The order is confirmed on the landing page its e-mail links to (decision 153).
  const mail = await sink.waitForMail({ to: address, subject: /Confirm your Orgsmith order/ });
  const link = /http:\/\/localhost:\d+(\/invoice-order\?token=\S+)/.exec(mail.text)?.[1] ?? '';
  expect(link).not.toBe('');
  documents.set('invoice order landing page', await (await request.get(link)).text());
  await page.goto(link);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Confirm the order' }).click();
  const invoiceLink = page.getByRole('link', { name: /^View invoice / });
  await expect(invoiceLink).toBeVisible();
  documents.set('invoice order confirmed', await liveDocument(page));
  documents.set('quote accept page, accepted', await (await request.get(accept)).text());
  const invoice = (await invoiceLink.getAttribute('href')) ?? '';
  documents.set('invoice page', await (await request.get(invoice)).text());
});

test('the Nu HTML checker finds no error in any of them', async () => {
  test.setTimeout(120_000);
  expect(documents.size).toBeGreaterThan(Object.keys(pages).length);
  const files = new Map<string, string>();
  let index = 0;
  for (const [label, html] of documents) {
    const file = path.join(dir, `${String(index++).padStart(2, '0')}.html`);
    await writeFile(file, html);
    files.set(`file:${file}`, label);
  }
  // vnu exits non-zero when it finds errors; the JSON report on stderr says which.
  const result = await promisify(execFile)(
    'java',
    [
      '-jar',
      vnuJar,
      '--errors-only',
      '--format',
      'json',
      ...[...files.keys()].map((f) => f.slice(5)),
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  ).catch((error: unknown) => {
    if (typeof error === 'object' && error !== null && 'stderr' in error) {
      return { stdout: '', stderr: String(error.stderr) };
    }
    throw error;
  });
  const report = vnuReport.parse(JSON.parse(result.stderr || '{"messages":[]}'));
  const errors = report.messages
    .filter((message) => message.type === 'error' || message.subType === 'fatal')
    .map((message) => `${files.get(message.url ?? '') ?? message.url}: ${message.message}`);
  expect(errors).toEqual([]);
});
