/** The pricing engine: pure functions shared by the website and the account service. */
export {
  billingPeriods,
  currencies,
  editions,
  isBillingPeriod,
  isCurrency,
  isEdition,
  isValidSize,
  priceConfig,
  sliderRange,
  type BillingPeriod,
  type Currency,
  type Edition,
} from './price-config.ts';
export {
  UNLIMITED,
  defaultSizeForEdition,
  editionForSize,
  priceInfo,
  type BillingSizeCode,
  type Limit,
  type PriceInfo,
} from './price-info.ts';
export {
  calculatePrice,
  structuredDataPrice,
  unitPrices,
  type EditionUnitPrices,
  type PriceAmounts,
  type PriceCalculation,
  type PriceSelection,
  type UnitPrices,
} from './calculate-price.ts';
export { quantityIsValidForEdition } from './quantity.ts';
export { mayPayByInvoice } from './pay-by-invoice.ts';
export { formatCents, formatPrice } from './format-price.ts';
export { planName } from './plan-name.ts';
export {
  GERMAN_VAT_PERCENT,
  decideVat,
  euCountries,
  isEuCountry,
  normalizeVatId,
  vatAmounts,
  vatIdProblem,
  vatLabel,
  vatPricingLine,
  type VatCase,
  type VatDecision,
} from './vat.ts';
