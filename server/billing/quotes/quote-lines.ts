import {
  calculatePrice,
  planName,
  priceConfig,
  unitPrices,
  type BillingPeriod,
  type Currency,
} from '#shared/pricing/index.ts';
import { siteConfig } from '#shared/site-config.ts';

export interface QuoteSelection {
  edition: 'Pro' | 'Enterprise';
  quantity: number;
  billingPeriod: BillingPeriod;
  currency: Currency;
}

/** One line of a quote; amounts in cents of the quote's currency. */
export interface QuoteLine {
  description: string;
  detail: string;
  quantity: number;
  unitCents: number;
  amountCents: number;
}

export interface PricedQuote {
  planName: string;
  lines: QuoteLine[];
  /** Net total of one billing period. */
  totalCents: number;
  /** Yearly billing only: 12 monthly payments minus the yearly price. */
  yearlySavingCents: number | undefined;
  /** "per month" or "per year". */
  period: string;
  /** How the subscription runs and is billed. */
  term: string;
}

const cents = (amount: number) => amount * 100;

/**
 * The lines of a quote, priced by the pricing engine (shared/pricing) exactly as the checkout
 * charges them: Pro's base price with its 4 orgs, then each further org; Enterprise one line.
 * The engine's whole-unit amounts become cents, so the lines add up to the total to the cent.
 */
export function priceQuote(selection: QuoteSelection): PricedQuote {
  const { edition, quantity, billingPeriod, currency } = selection;
  const calculation = calculatePrice({ size: quantity, billingPeriod, currency });
  if (calculation.info.edition !== edition) {
    throw new RangeError(`Size ${quantity} is not an ${edition} size`);
  }
  const units = unitPrices(edition, currency)[billingPeriod];
  const per = billingPeriod === 'monthly' ? 'month' : 'year';
  const product = siteConfig.productName;
  const lines: QuoteLine[] = [];
  if (edition === 'Pro') {
    const included = priceConfig.proStartSize * priceConfig.proOrgsPerSizeUnit;
    lines.push({
      description: `${product} Pro licence`,
      detail: `Base price per ${per}, includes ${included} Salesforce orgs`,
      quantity: 1,
      unitCents: cents(units.base),
      amountCents: cents(units.base),
    });
    if (calculation.extraOrgs > 0) {
      lines.push({
        description: 'Additional Salesforce orgs',
        detail: `Orgs ${included + 1} to ${included + calculation.extraOrgs}, per org per ${per}`,
        quantity: calculation.extraOrgs,
        unitCents: cents(units.perOrg),
        amountCents: cents(units.perOrg * calculation.extraOrgs),
      });
    }
  } else {
    lines.push({
      description: `${product} Enterprise licence`,
      detail: `Unlimited orgs and stacks, ${priceConfig.enterpriseSlaResponseHours}-hour support SLA, per ${per}`,
      quantity: 1,
      unitCents: cents(units.base),
      amountCents: cents(units.base),
    });
  }
  const totalCents = lines.reduce((sum, line) => sum + line.amountCents, 0);
  // The lines are the engine's own amounts: if they ever disagree, no quote goes out.
  if (totalCents !== cents(calculation.selected.total)) {
    throw new Error(
      `Quote lines add up to ${totalCents}, the engine says ${calculation.selected.total}`,
    );
  }
  return {
    planName: planName(edition, quantity),
    lines,
    totalCents,
    yearlySavingCents: billingPeriod === 'yearly' ? cents(calculation.savedYearly) : undefined,
    period: `per ${per}`,
    term:
      billingPeriod === 'monthly'
        ? 'Subscription billed monthly in advance; it renews each month until cancelled.'
        : 'Subscription billed yearly in advance; it renews each year until cancelled.',
  };
}
