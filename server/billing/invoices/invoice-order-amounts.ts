import { calculatePrice } from '#shared/pricing/index.ts';
import { decideVatBeforeVies, vatAmounts, vatLabel } from '#shared/pricing/vat.ts';
import type { InvoiceOrderAmounts } from '#shared/contracts/invoice-checkout.ts';
import type { InvoiceOrderDetails } from './create-invoice-checkout.ts';

/**
 * The amounts of an order before it is confirmed (decision 218): the pricing engine's net price
 * and the VAT rule as the order form shows it before VIES is asked (decision 210) — the same
 * figures the invoice will carry unless VIES confirms an EU VAT ID at confirmation.
 */
export function invoiceOrderAmounts(
  details: Pick<
    InvoiceOrderDetails,
    'quantity' | 'billingPeriod' | 'billingCurrency' | 'country' | 'vatId'
  >,
): InvoiceOrderAmounts {
  const price = calculatePrice({
    size: details.quantity,
    billingPeriod: details.billingPeriod,
    currency: details.billingCurrency,
  });
  const decision = decideVatBeforeVies({
    country: details.country,
    vatId: details.vatId ?? undefined,
  });
  const amounts = vatAmounts(price.selected.total * 100, decision);
  return {
    currency: details.billingCurrency,
    netMinor: amounts.netMinor,
    vatMinor: amounts.vatMinor,
    grossMinor: amounts.grossMinor,
    vatLabel: vatLabel(decision),
    note: decision.note,
  };
}
