import { z } from 'zod';
import { expect, test } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { waitForHydration } from './support/shell.ts';

/** Unique per run: the e2e database lives on. */
const run = Date.now().toString(36);
const csrf = { Cookie: 'XSRF-TOKEN=e2e-quote-card', 'X-XSRF-TOKEN': 'e2e-quote-card' };

/**
 * Decision 214: "Pay by card" on a quote's accept page buys that quote. Once paid, the page says
 * the quote was accepted and paid by card and offers neither way to accept it again.
 */
test('a quote paid by card from its accept page is accepted; the page offers it no more', async ({
  page,
}) => {
  const email = `card-quote-${run}@example.com`;
  const created = await page.request.post('/account/v1/quotes', {
    headers: csrf,
    data: {
      companyName: 'Kartenzahler GmbH',
      emailAddress: email,
      addressLine: 'Hauptstraße 1',
      postalCode: '10115',
      city: 'Berlin',
      country: 'DE',
      edition: 'Pro',
      quantity: 8,
      billingPeriod: 'monthly',
      billingCurrency: 'EUR',
    },
  });
  expect(created.status()).toBe(201);
  const { acceptUrl, number } = z
    .object({ acceptUrl: z.string(), number: z.string() })
    .parse(await created.json());
  const acceptPath = new URL(acceptUrl).pathname + new URL(acceptUrl).search;

  await page.goto(acceptPath);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Buy Pro' }).click();
  await expect(page).toHaveURL(/\/billing\/local\/checkout\//);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry date').fill('12/34');
  await page.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByRole('status')).toContainText('licence key is on its way');

  await page.goto(acceptPath);
  const main = page.getByRole('main');
  await expect(main).toContainText(number);
  await expect(main).toContainText(/This quote was accepted and paid by card on \d{4}-\d{2}-\d{2}/);
  await expect(page.getByRole('heading', { name: 'How would you like to accept?' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Buy Pro' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Get a new quote' })).toBeVisible();
  await expectNoAxeViolations(page, 'quote paid by card');
});
