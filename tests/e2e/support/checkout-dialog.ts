import { expect, type Locator, type Page } from '@playwright/test';
import { waitForHydration } from './shell.ts';

/** A company as the checkout dialog asks it (decision 219); `state` only where the country has one. */
export interface CheckoutBuyer {
  company: string;
  street?: string;
  postalCode?: string;
  city?: string;
  country?: string;
  state?: string;
  vatId?: string;
}

export const germanBuyer: CheckoutBuyer = {
  company: 'Muster Software GmbH',
  street: 'Hauptstraße 1',
  postalCode: '10115',
  city: 'Berlin',
  country: 'Germany',
};

/** Opens the pricing page with `search` and the checkout dialog of the plan card `button`. */
export async function openCheckoutDialog(
  page: Page,
  search: string,
  button: string,
): Promise<Locator> {
  await page.goto(`/pricing?${search}`);
  await waitForHydration(page);
  await page.getByRole('link', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Your company' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Fills the dialog with `buyer` (and a trial key to convert, if any). */
export async function fillCheckoutDialog(
  dialog: Locator,
  buyer: CheckoutBuyer,
  trialKey?: string,
): Promise<void> {
  await dialog.getByLabel('Company name').fill(buyer.company);
  if (buyer.street) await dialog.getByLabel('Street and number').fill(buyer.street);
  if (buyer.postalCode) await dialog.getByLabel('Postal code').fill(buyer.postalCode);
  if (buyer.city) await dialog.getByLabel('City').fill(buyer.city);
  if (buyer.country) await dialog.getByLabel('Country').selectOption({ label: buyer.country });
  if (buyer.state) await dialog.getByLabel(/^State|^Province/).selectOption({ label: buyer.state });
  if (buyer.vatId) await dialog.getByLabel(/^VAT ID/).fill(buyer.vatId);
  if (trialKey !== undefined) {
    await dialog.getByText('Converting a trial?').click();
    await dialog.getByLabel('Trial licence key (optional)').fill(trialKey);
  }
}

/** The plan card's button, the dialog filled with `buyer`, then on to the payment page. */
export async function openPlanCheckout(
  page: Page,
  search: string,
  button: string,
  buyer: CheckoutBuyer = germanBuyer,
  trialKey?: string,
): Promise<void> {
  const dialog = await openCheckoutDialog(page, search, button);
  await fillCheckoutDialog(dialog, buyer, trialKey);
  await dialog.getByRole('button', { name: /^Continue/ }).click();
  await expect(page).toHaveURL(/\/billing\/local\/checkout\/lcs_/);
}
