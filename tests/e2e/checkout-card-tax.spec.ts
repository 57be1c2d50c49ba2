import { expect, test } from './support/test.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { fillCheckoutDialog, openCheckoutDialog } from './support/checkout-dialog.ts';

/**
 * Decision 219: the card checkout asks the company, its address and VAT ID, and shows the VAT of
 * the one rule before paying — in the dialog as it is typed, and on the payment page. Pro, 10
 * orgs, yearly, EUR: €15,524.00 net (the engine's price).
 */
const buyers = [
  {
    who: 'a German company: 19 %',
    buyer: {
      company: 'Muster Software GmbH',
      street: 'Hauptstraße 1',
      postalCode: '10115',
      city: 'Berlin',
      country: 'Germany',
    },
    label: 'VAT 19 %',
    address: '10115 Berlin',
  },
  {
    who: 'a French company whose VAT ID VIES confirms: reverse charge',
    buyer: {
      company: 'Exemple SA',
      street: '1 rue de Rivoli',
      postalCode: '75001',
      city: 'Paris',
      country: 'France',
      vatId: 'FR40303265045',
    },
    // The dialog cannot know VIES's answer yet; the payment page, made after it, does.
    dialogLabel: 'VAT 19 %',
    label: 'VAT 0 % (reverse charge)',
    address: '75001 Paris',
  },
  {
    who: 'a US company with its state: no German VAT',
    buyer: {
      company: 'Acme Inc.',
      street: '1 Market St',
      postalCode: '94105',
      city: 'San Francisco',
      country: 'United States',
      state: 'California',
    },
    label: 'VAT 0 % (not taxable in Germany)',
    address: 'San Francisco, CA 94105',
  },
];

for (const { who, buyer, label, dialogLabel, address } of buyers) {
  test(`card checkout for ${who}`, async ({ page }) => {
    const dialog = await openCheckoutDialog(page, 'size=10&period=yearly&currency=EUR', 'Buy Pro');
    await expect(dialog).toContainText('sold to businesses only');
    const next = dialog.getByRole('button', { name: 'Continue to payment' });
    await expect(next).toBeDisabled();
    await fillCheckoutDialog(dialog, buyer);
    await expect(dialog.getByRole('definition').nth(1)).not.toHaveText('by country');
    await expect(dialog.getByText(dialogLabel ?? label, { exact: true })).toBeVisible();
    await next.click();
    await expect(page).toHaveURL(/\/billing\/local\/checkout\/lcs_/);
    const main = page.getByRole('main');
    await expect(main).toContainText(label);
    await expect(main).toContainText(buyer.company);
    await expect(main).toContainText(address);
    await expect(page.getByRole('button', { name: /^Pay / })).toBeVisible();
    if (buyer.country === 'United States') await expectNoAxeViolations(page, 'card checkout page');
  });
}
