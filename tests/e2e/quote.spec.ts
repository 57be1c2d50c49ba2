import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { quoteSuccessMessage } from '#shared/contracts/messages.ts';
import { vatNotes } from '#shared/pricing/vat.ts';
import type { SmtpSink } from '#tests/support/smtp-sink.ts';
import { expect, test, type Page } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { dismissCookieBanner, waitForHydration } from './support/shell.ts';

const run = promisify(execFile);

let sink: SmtpSink;
/** The worker's sink, where its server sends every e-mail. */
test.beforeAll(({ smtpSink }) => {
  sink = smtpSink;
});

/** Unique per run: the e2e database lives as long as the server. */
const address = `quotes-${Date.now().toString(36)}@example.com`;

async function pdfText(bytes: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'e2e-quote-'));
  try {
    await writeFile(join(dir, 'quote.pdf'), bytes);
    return (await run('pdftotext', ['-layout', join(dir, 'quote.pdf'), '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** How far the page reaches past the viewport's right edge. */
const sideways = (page: Page) =>
  page.evaluate(() =>
    Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth),
  );

test('pricing → Enterprise yearly → Get a quote → PDF, e-mail and the accept page', async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await dismissCookieBanner(context, baseURL);
  await page.goto('/pricing');
  await waitForHydration(page);
  await page.getByRole('radio', { name: /Yearly/ }).click();
  await expect(page).toHaveURL(/period=yearly/);

  await page.getByRole('article').getByRole('button', { name: 'Enterprise', exact: true }).click();
  // One action per card (decision 179): Enterprise is bought (through the checkout dialog,
  // decision 219), nothing else sits on the card.
  const enterprise = page
    .getByRole('article')
    .filter({ has: page.getByRole('button', { name: 'Enterprise', exact: true }) });
  await expect(enterprise.getByRole('link')).toHaveText(['Buy Enterprise']);
  await page
    .getByRole('link', { name: 'Buying for a company? Get a quote or pay by invoice' })
    .click();

  // The selected plan goes into the URL with the dialog, as the selector writes it.
  await expect(page).toHaveURL(/\/pricing\?size=25&period=yearly&currency=USD&modal=quote$/);
  const dialog = page.getByRole('dialog', { name: 'Get a quote or pay by invoice' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Orgsmith Enterprise, billed yearly in USD');
  await expect(dialog).toContainText('$37,800.00');
  const send = dialog.getByRole('button', { name: 'Get the quote' });
  await expect(send).toBeDisabled();
  await expectNoAxeViolations(page, 'quote dialog');

  // The forms' own messages, shown once the form is touched.
  await dialog.getByLabel('VAT ID (optional)').fill('12345');
  await expect(dialog.getByText('You must enter your company name.')).toBeVisible();
  await expect(dialog.getByText('Choose the country from the list.')).toBeVisible();
  await expect(dialog.getByText('You must enter an email address.')).toBeVisible();
  await dialog.getByLabel('Country').selectOption('SE');
  await expect(
    dialog.getByText('This is not a valid VAT ID for Sweden', { exact: false }),
  ).toBeVisible();
  await expectNoAxeViolations(page, 'quote dialog with errors');

  // The VAT rule as the visitor types (decisions 177, 210): Germany 19 %; Sweden with its VAT ID
  // 19 % until VIES confirms it when the quote is made, which the form says.
  await dialog.getByLabel('VAT ID (optional)').fill('');
  await dialog.getByLabel('Country').selectOption('DE');
  await expect(dialog.getByText('VAT 19 %')).toBeVisible();
  await expect(dialog).toContainText('$7,182.00');
  await expect(dialog).toContainText('$44,982.00');
  await dialog.getByLabel('Country').selectOption('SE');
  await dialog.getByLabel('Company name').fill('Nordlicht Software AB');
  await dialog.getByLabel('Billing email address').fill(address);
  await dialog.getByLabel('Street and number').fill('Storgatan 1');
  await dialog.getByLabel('Postal code').fill('111 23');
  await dialog.getByLabel('City').fill('Stockholm');
  await dialog.getByLabel('VAT ID (optional)').fill('SE556677889901');
  await dialog.getByLabel('Purchase order (optional)').fill('PO-4711');
  await expect(dialog.getByText('VAT 19 %')).toBeVisible();
  await expect(dialog.getByText(vatNotes.reverseChargeOnceConfirmed)).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await send.click();

  // The success view replaces the form and shows whole on a phone.
  await expect(
    dialog.getByRole('heading', { name: /Quote Q-\d{4}-\d{4} is ready/ }),
  ).toBeInViewport();
  await expect(dialog.getByRole('textbox')).toHaveCount(0);

  const status = dialog.getByRole('status');
  await expect(status).toContainText(/Your quote Q-\d{4}-\d{4} is ready/);
  const number = /Q-\d{4}-\d{4}/.exec((await status.textContent()) ?? '')?.[0] ?? '';
  await expect(status).toContainText(quoteSuccessMessage(number, address));
  await expectNoAxeViolations(page, 'quote dialog, success');
  await dialog.screenshot({ path: 'test-results/quote-dialog-success.png' });
  await expect(dialog.getByRole('link', { name: /^Download Q-/ })).toBeInViewport();
  await page.setViewportSize({ width: 1280, height: 900 });

  // Downloadable at once: the link carries the quote's own token, not just its number.
  const download = dialog.getByRole('link', { name: `Download ${number} (PDF)` });
  const href = (await download.getAttribute('href')) ?? '';
  expect(href).toMatch(new RegExp(`/quotes/${number}\\.pdf\\?token=[\\w-]{32}$`));
  const pdf = await page.request.get(href);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  const text = await pdfText(await pdf.body());
  expect(text).toContain(number);
  expect(text).toContain('Nordlicht Software AB');
  expect(text).toMatch(/Net per year\s+\$37,800\.00/);
  expect(text).toMatch(/VAT 0 % \(reverse charge\)\s+\$0\.00/);
  expect(text).toContain('Reverse charge');
  expect(text.replace(/\s+/g, ' ')).toMatch(
    /VAT ID SE556677889901 confirmed by VIES on \d{4}-\d{2}-\d{2}, consultation number WAPI/,
  );
  expect(text).toContain('Storgatan 1');
  const bare = await page.request.get(`/quotes/${number}.pdf`);
  expect(bare.status()).toBe(404);

  // And on its way by e-mail, with the same links.
  const mail = await sink.waitForMail({ to: address });
  expect(mail.subject).toBe(`Your Orgsmith quote ${number}`);
  expect(mail.text).toContain(href);

  await dialog.getByRole('link', { name: 'Accept this quote' }).click();
  await expect(page).toHaveURL(/\/quote\/accept\?token=[\w-]{32}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Accept your quote' })).toBeVisible();
  await expect(page.getByText('Orgsmith Enterprise, billed yearly in USD')).toBeVisible();
  await expect(page.getByText(number, { exact: true })).toBeVisible();
  await expect(page.getByText('Nordlicht Software AB')).toBeVisible();
  await expect(page.getByText('PO-4711')).toBeVisible();
  await expect(page.getByRole('row', { name: /Total per year/ })).toContainText('$37,800.00');
  await expect(page.getByText(/you save \$4,200\.00/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'How would you like to accept?' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Buy Enterprise' })).toBeEnabled();
  await expectNoAxeViolations(page, 'quote accept page');

  for (const width of [320, 390]) {
    await page.setViewportSize({ width, height: 740 });
    expect(await sideways(page), `accept page at ${width} px`).toBe(0);
    await page.screenshot({ path: `test-results/quote-accept-${width}.png`, fullPage: true });
  }
});

test('the accept page of a forged link says so and offers pricing', async ({ page }) => {
  const response = await page.goto(`/quote/accept?token=${'x'.repeat(32)}`);
  expect(response?.headers()['cache-control']).toBe('no-store');
  expect(response?.headers()['referrer-policy']).toBe('strict-origin-when-cross-origin');
  await expect(page.getByText('This link does not open a quote.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to pricing' })).toBeVisible();
  await expectNoAxeViolations(page, 'quote accept page, forged link');
});
