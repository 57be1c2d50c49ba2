/*
 * The VAT rule's two facts the pricing page shows, apart from vat.ts so the page's first load
 * carries neither the country list nor the VAT ID formats (decision 177).
 */

/** The German standard rate, in percent (§ 12 (1) UStG). */
export const GERMAN_VAT_PERCENT = 19;

/** What the pricing page says about tax, in the rule's words. */
export const vatPricingLine = `All prices are net. Businesses in Germany, and in other EU states without a VAT ID, pay ${GERMAN_VAT_PERCENT} % German VAT on top; EU businesses whose VAT ID VIES confirms pay no VAT (reverse charge); businesses outside the EU pay no German VAT.`;
