import type { BillingPeriod, Edition } from './price-config.ts';

/**
 * Only yearly Pro and Enterprise may pay by invoice (Starter is free, monthly is card-only;
 * decision 144). Lives in the pricing engine, not in the zod contract, so the pricing page can
 * ask without loading a validation library.
 */
export function mayPayByInvoice(order: {
  edition: Edition;
  billingPeriod: BillingPeriod;
}): boolean {
  return order.billingPeriod === 'yearly' && order.edition !== 'Starter';
}
