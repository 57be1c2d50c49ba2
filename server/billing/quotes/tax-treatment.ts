/**
 * The tax line of a quote (decision 143). Quote amounts are net. A business in another EU member
 * state that gives its VAT ID is charged no VAT by us: the reverse-charge note names the rule.
 * Everyone else gets "+ local tax": the tax depends on where the buyer is and is settled on the
 * invoice, not on the quote.
 */

/**
 * VAT ID prefixes of the EU member states: ISO codes, except Greece, whose VAT IDs start with EL.
 * Northern Ireland's XI covers goods only, and software licences are services.
 */
export const euVatPrefixes: ReadonlySet<string> = new Set([
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'EL',
  'ES',
  'FI',
  'FR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
]);

export type TaxTreatment =
  | { kind: 'reverse-charge'; buyerVatId: string; note: string }
  | { kind: 'local-tax'; note: string };

export const taxNotes = {
  localTax:
    'All prices are net. Value added tax or sales tax is added at the rate that applies where you are (+ local tax).',
  reverseCharge:
    'Reverse charge: no VAT is charged. VAT is to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).',
} as const;

/**
 * How a quote is taxed, from the buyer's VAT ID (already normalized) and the seller's. Order:
 * no VAT ID → local tax; a prefix outside the EU → local tax; the seller's own country → local
 * tax (domestic VAT); another EU state → reverse charge.
 */
export function taxTreatment(buyerVatId: string | undefined, sellerVatId: string): TaxTreatment {
  const local = { kind: 'local-tax', note: taxNotes.localTax } as const;
  if (!buyerVatId) return local;
  const prefix = buyerVatId.slice(0, 2);
  if (!euVatPrefixes.has(prefix)) return local;
  if (prefix === sellerVatId.slice(0, 2)) return local;
  return { kind: 'reverse-charge', buyerVatId, note: taxNotes.reverseCharge };
}
