import { countryNames, isCountryCode, type CountryCode } from '../countries.ts';
import { siteConfig } from '../site-config.ts';
import { vatIdCheckDigitsPass } from './vat-id-check-digits.ts';
import type { VatIdConfirmation } from './vat-id-confirmation.ts';

/**
 * The VAT rule of every sale (decisions 177, 210). The seller is a German GmbH; every buyer is a
 * business (the licences are for companies' CI and teams). Prices are net; this rule decides what
 * is added to them, from the buyer's country, VAT ID and VIES's confirmation of that ID:
 *
 * - a business in Germany → 19 % German VAT (`domestic`), VAT ID or not;
 * - a business in another EU state with a VAT ID of that state's format and check digits that
 *   VIES confirmed → no VAT, the buyer accounts for it (`reverse-charge`, Article 196 of the VAT
 *   Directive);
 * - a business in another EU state whose VAT ID VIES has not confirmed (made up, wrong check
 *   digits, unknown to VIES, or VIES unavailable) → 19 % German VAT (`eu-vat-id-unconfirmed`):
 *   a typed ID proves nothing, and charging never falls short;
 * - a business outside the EU → no German VAT: the place of supply of a B2B service is where the
 *   buyer is established (§ 3a (2) UStG, Article 44) (`outside-eu`);
 * - a business in another EU state without a VAT ID → 19 % German VAT (`eu-without-vat-id`):
 *   without the ID we cannot show it is a business, so it is taxed as a sale to a consumer, and
 *   below the EU-wide 10,000 € threshold of cross-border e-services that is German VAT.
 *
 * Used by the quote PDF, the order forms, the invoices and receipts and the pricing page, so they
 * say the same thing. VIES itself is asked on the server (server/billing/vat/); this rule only
 * takes its confirmation.
 */

/** The seller's country, from its VAT ID (`DE318765432` → `DE`). */
export const sellerCountry = siteConfig.company.vatId.slice(0, 2) as CountryCode;

import { GERMAN_VAT_PERCENT } from './vat-line.ts';

export { GERMAN_VAT_PERCENT, vatPricingLine } from './vat-line.ts';

export interface VatIdFormat {
  /** The prefix VAT IDs of the state start with: its ISO code, except Greece's `EL`. */
  prefix: string;
  pattern: RegExp;
  /** How the format reads in an error message. */
  format: string;
  example: string;
}

/**
 * The EU member states (ISO 3166-1 alpha-2) and the format of their VAT IDs (as VIES accepts
 * them, after spaces, dots and hyphens are dropped). Northern Ireland's `XI` is for goods only,
 * and a licence is a service: it is not here. Greece's VAT IDs start with `EL`.
 */
export const euVatIdFormats = {
  AT: { prefix: 'AT', pattern: /^ATU\d{8}$/, format: 'ATU and 8 digits', example: 'ATU12345678' },
  BE: {
    prefix: 'BE',
    pattern: /^BE[01]\d{9}$/,
    format: 'BE and 10 digits starting with 0 or 1',
    example: 'BE0123456789',
  },
  BG: {
    prefix: 'BG',
    pattern: /^BG\d{9,10}$/,
    format: 'BG and 9 or 10 digits',
    example: 'BG123456789',
  },
  CY: {
    prefix: 'CY',
    pattern: /^CY\d{8}[A-Z]$/,
    format: 'CY, 8 digits and a letter',
    example: 'CY12345678L',
  },
  CZ: {
    prefix: 'CZ',
    pattern: /^CZ\d{8,10}$/,
    format: 'CZ and 8 to 10 digits',
    example: 'CZ12345678',
  },
  DE: { prefix: 'DE', pattern: /^DE\d{9}$/, format: 'DE and 9 digits', example: 'DE123456789' },
  DK: { prefix: 'DK', pattern: /^DK\d{8}$/, format: 'DK and 8 digits', example: 'DK12345678' },
  EE: { prefix: 'EE', pattern: /^EE\d{9}$/, format: 'EE and 9 digits', example: 'EE123456789' },
  ES: {
    prefix: 'ES',
    pattern: /^ES[A-Z0-9]\d{7}[A-Z0-9]$/,
    format: 'ES, a letter or digit, 7 digits and a letter or digit',
    example: 'ESB12345678',
  },
  FI: { prefix: 'FI', pattern: /^FI\d{8}$/, format: 'FI and 8 digits', example: 'FI12345678' },
  FR: {
    prefix: 'FR',
    pattern: /^FR[A-HJ-NP-Z0-9]{2}\d{9}$/,
    format: 'FR, 2 letters or digits and 9 digits',
    example: 'FR40303265045',
  },
  GR: {
    prefix: 'EL',
    pattern: /^EL\d{9}$/,
    format: 'EL (not GR) and 9 digits',
    example: 'EL123456789',
  },
  HR: { prefix: 'HR', pattern: /^HR\d{11}$/, format: 'HR and 11 digits', example: 'HR12345678901' },
  HU: { prefix: 'HU', pattern: /^HU\d{8}$/, format: 'HU and 8 digits', example: 'HU12345678' },
  IE: {
    prefix: 'IE',
    pattern: /^IE(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/,
    format: 'IE, 7 digits and 1 or 2 letters',
    example: 'IE1234567T',
  },
  IT: { prefix: 'IT', pattern: /^IT\d{11}$/, format: 'IT and 11 digits', example: 'IT12345678901' },
  LT: {
    prefix: 'LT',
    pattern: /^LT(\d{9}|\d{12})$/,
    format: 'LT and 9 or 12 digits',
    example: 'LT123456789',
  },
  LU: { prefix: 'LU', pattern: /^LU\d{8}$/, format: 'LU and 8 digits', example: 'LU12345678' },
  LV: { prefix: 'LV', pattern: /^LV\d{11}$/, format: 'LV and 11 digits', example: 'LV12345678901' },
  MT: { prefix: 'MT', pattern: /^MT\d{8}$/, format: 'MT and 8 digits', example: 'MT12345678' },
  NL: {
    prefix: 'NL',
    pattern: /^NL\d{9}B\d{2}$/,
    format: 'NL, 9 digits, B and 2 digits',
    example: 'NL123456789B01',
  },
  PL: { prefix: 'PL', pattern: /^PL\d{10}$/, format: 'PL and 10 digits', example: 'PL1234567890' },
  PT: { prefix: 'PT', pattern: /^PT\d{9}$/, format: 'PT and 9 digits', example: 'PT123456789' },
  RO: {
    prefix: 'RO',
    pattern: /^RO[1-9]\d{1,9}$/,
    format: 'RO and 2 to 10 digits',
    example: 'RO12345678',
  },
  SE: {
    prefix: 'SE',
    pattern: /^SE\d{10}01$/,
    format: 'SE and 12 digits ending in 01',
    example: 'SE123456789001',
  },
  SI: { prefix: 'SI', pattern: /^SI\d{8}$/, format: 'SI and 8 digits', example: 'SI12345678' },
  SK: { prefix: 'SK', pattern: /^SK\d{10}$/, format: 'SK and 10 digits', example: 'SK1234567890' },
} as const satisfies Partial<Record<CountryCode, VatIdFormat>>;

export type EuCountry = keyof typeof euVatIdFormats;

/** The 27 EU member states, by ISO code. */
export const euCountries: readonly EuCountry[] = /* @__PURE__ */ Object.keys(
  euVatIdFormats,
) as EuCountry[];

export function isEuCountry(country: string): country is EuCountry {
  return Object.hasOwn(euVatIdFormats, country);
}

/** The longest VAT ID text a form or endpoint takes, before normalizing (with spaces and dots). */
export const VAT_ID_INPUT_MAX = 40;

/** A VAT or tax ID of a state outside the EU, after normalizing: 4 to 20 letters or digits. */
const OTHER_TAX_ID_PATTERN = /^[A-Z0-9]{4,20}$/;

/**
 * `de 123.456-789` → `DE123456789`: spaces, dots, hyphens and slashes dropped, letters upper-cased.
 * For an EU state, a number typed without its prefix gets it (`123456789` in Germany →
 * `DE123456789`).
 */
export function normalizeVatId(value: string, country?: string): string {
  const compact = value.replace(/[\s./-]/g, '').toUpperCase();
  if (country && isEuCountry(country) && /^\d/.test(compact)) {
    return euVatIdFormats[country].prefix + compact;
  }
  return compact;
}

/** The EU state whose VAT ID format the text has, if any. */
export function euStateOfVatId(vatId: string): EuCountry | undefined {
  return euCountries.find((state) => euVatIdFormats[state].pattern.test(vatId));
}

export const vatMessages = {
  countryInvalid: 'Choose the country from the list.',
  /** Shown under the VAT ID field: the state's format and an example. */
  vatIdForState: (state: EuCountry) => {
    const { format, example } = euVatIdFormats[state];
    return `This is not a valid VAT ID for ${countryNames[state]}: ${format}, e.g. ${example}.`;
  },
  vatIdOfOtherState: (state: EuCountry) =>
    `This VAT ID is from ${countryNames[state]}. Choose ${countryNames[state]} as the country, or enter the VAT ID of your company in the country you chose.`,
  taxIdInvalid: 'This is not a valid tax ID: 4 to 20 letters or digits.',
} as const;

/**
 * What is wrong with a buyer's country and VAT ID (normalized), or `null` when the pair is
 * usable: the country must be an ISO code; an EU state's VAT ID must have that state's format; a
 * VAT ID in another EU state's format is refused, whatever the country (no reverse charge for a
 * borrowed ID); outside the EU any 4–20 letters or digits are taken as the buyer's tax ID.
 */
export function vatIdProblem(country: string, vatId: string | undefined): string | null {
  if (!isCountryCode(country)) return vatMessages.countryInvalid;
  if (!vatId) return null;
  const stateOfId = euStateOfVatId(vatId);
  if (stateOfId && stateOfId !== country) return vatMessages.vatIdOfOtherState(stateOfId);
  if (isEuCountry(country)) {
    return euVatIdFormats[country].pattern.test(vatId) ? null : vatMessages.vatIdForState(country);
  }
  return OTHER_TAX_ID_PATTERN.test(vatId) ? null : vatMessages.taxIdInvalid;
}

export type VatCase =
  'domestic' | 'reverse-charge' | 'eu-vat-id-unconfirmed' | 'outside-eu' | 'eu-without-vat-id';

/** Every case, for the schemas of stored documents. */
export const vatCases = [
  'domestic',
  'reverse-charge',
  'eu-vat-id-unconfirmed',
  'outside-eu',
  'eu-without-vat-id',
] as const satisfies readonly VatCase[];

export interface VatDecision {
  case: VatCase;
  ratePercent: number;
  /** The sentence an invoice or quote prints under the totals; `null` for plain German VAT. */
  note: string | null;
  /** The buyer's VAT ID as it is printed (normalized), when one was given. */
  buyerVatId?: string;
  /** VIES's confirmation the reverse charge rests on (`reverse-charge` only). */
  confirmation?: VatIdConfirmation;
}

export type { VatIdConfirmation };

export const vatNotes = {
  reverseCharge:
    'Reverse charge: no VAT is charged. VAT is to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC).',
  outsideEu:
    'Not taxable in Germany: the place of supply is where the recipient is established, outside the EU (§ 3a (2) UStG, Article 44, Council Directive 2006/112/EC). Any tax due there is accounted for by the recipient.',
  euWithoutVatId: `No VAT ID was given, so German VAT of ${GERMAN_VAT_PERCENT} % is charged. With your company's VAT ID the reverse charge applies instead.`,
  vatIdUnconfirmed: `German VAT of ${GERMAN_VAT_PERCENT} % is charged: VIES, the EU's VAT number service, has not confirmed this VAT ID. The reverse charge applies only to a VAT ID that VIES confirms.`,
  /** Printed with the reverse charge: the proof it rests on. */
  vatIdConfirmed: (confirmation: VatIdConfirmation) =>
    `VAT ID ${confirmation.vatId} confirmed by VIES on ${confirmation.confirmedOn}, consultation number ${confirmation.consultationNumber}.`,
  /** What the order forms say before anything is sent: VIES is asked when the quote or order is made. */
  reverseChargeOnceConfirmed: `Reverse charge (VAT 0 %) applies once VIES, the EU's VAT number service, confirms your VAT ID when the quote or order is made; until then, or if it does not, German VAT of ${GERMAN_VAT_PERCENT} % is charged.`,
  checkDigitsWrong: `This VAT ID's check digits do not match, so VIES cannot confirm it and German VAT of ${GERMAN_VAT_PERCENT} % is charged. Check the number.`,
} as const;

/**
 * Whether a sale to `buyer` can be a reverse charge at all, before asking VIES: a usable country
 * and VAT ID pair, an EU state other than the seller's, and a VAT ID whose check digits pass.
 * Only then is VIES asked (server/billing/vat/confirm-vat-id.ts).
 */
export function reverseChargeMayApply(buyer: { country: string; vatId?: string | undefined }) {
  const { country, vatId } = buyer;
  if (!vatId || vatIdProblem(country, vatId) !== null) return false;
  return isEuCountry(country) && country !== sellerCountry && vatIdCheckDigitsPass(vatId);
}

/**
 * The VAT of a sale to a business in `country` (ISO 3166-1 alpha-2, upper case) with `vatId`
 * (normalized, optional) and VIES's `confirmation` of that ID, if it gave one. The one place the
 * reverse charge is decided: only an ID that passes its check digits and that VIES confirmed
 * (the same ID) is one; never the typed country or a well-formed ID alone. Throws a RangeError
 * for a pair `vatIdProblem` refuses: callers validate first (the contracts do), so a bad pair
 * here is a bug, never a guess at a tax rate.
 */
export function decideVat(buyer: {
  country: string;
  vatId?: string | undefined;
  confirmation?: VatIdConfirmation | null | undefined;
}): VatDecision {
  const vatId = buyer.vatId || undefined;
  const problem = vatIdProblem(buyer.country, vatId);
  if (problem) throw new RangeError(`decideVat(${buyer.country}, ${vatId ?? '-'}): ${problem}`);
  const withId = vatId ? { buyerVatId: vatId } : {};
  if (buyer.country === sellerCountry) {
    return { case: 'domestic', ratePercent: GERMAN_VAT_PERCENT, note: null, ...withId };
  }
  if (!isEuCountry(buyer.country)) {
    return { case: 'outside-eu', ratePercent: 0, note: vatNotes.outsideEu, ...withId };
  }
  if (!vatId) {
    return {
      case: 'eu-without-vat-id',
      ratePercent: GERMAN_VAT_PERCENT,
      note: vatNotes.euWithoutVatId,
    };
  }
  const { confirmation } = buyer;
  if (
    confirmation &&
    confirmation.vatId === vatId &&
    reverseChargeMayApply({ country: buyer.country, vatId })
  ) {
    return {
      case: 'reverse-charge',
      ratePercent: 0,
      note: `${vatNotes.reverseCharge} ${vatNotes.vatIdConfirmed(confirmation)}`,
      ...withId,
      confirmation,
    };
  }
  return {
    case: 'eu-vat-id-unconfirmed',
    ratePercent: GERMAN_VAT_PERCENT,
    note: vatNotes.vatIdUnconfirmed,
    ...withId,
  };
}

/**
 * What the order forms show while the buyer types, before VIES is asked (it is asked when the
 * quote or order is made): `decideVat` without a confirmation — so an EU VAT ID shows the 19 %
 * it is charged until VIES confirms it — with a note that says so, or that the check digits are
 * wrong. The same rule as the service's, so the form never promises what the document won't say.
 */
export function decideVatBeforeVies(buyer: {
  country: string;
  vatId?: string | undefined;
}): VatDecision {
  const decision = decideVat({ country: buyer.country, vatId: buyer.vatId });
  if (decision.case !== 'eu-vat-id-unconfirmed') return decision;
  const note = reverseChargeMayApply(buyer)
    ? vatNotes.reverseChargeOnceConfirmed
    : vatNotes.checkDigitsWrong;
  return { ...decision, note };
}

/** The label of the VAT line of a total: "VAT 19 %", "VAT 0 % (reverse charge)", "No German VAT". */
export function vatLabel(decision: VatDecision): string {
  switch (decision.case) {
    case 'domestic':
    case 'eu-without-vat-id':
    case 'eu-vat-id-unconfirmed':
      return `VAT ${decision.ratePercent} %`;
    case 'reverse-charge':
      return 'VAT 0 % (reverse charge)';
    case 'outside-eu':
      return 'VAT 0 % (not taxable in Germany)';
  }
}

/**
 * Net, VAT and gross of a net amount in minor units (cents). VAT is computed once on the net
 * total of a document, not per line, and rounded half away from zero to the cent (19 % of
 * 1,250 cents is 237.5 → 238); gross is net + VAT, so the three always add up. Integer
 * arithmetic only: the rate is a whole percent.
 */
export function vatAmounts(
  netMinor: number,
  decision: VatDecision,
): { netMinor: number; vatMinor: number; grossMinor: number; ratePercent: number } {
  const { ratePercent } = decision;
  if (!Number.isSafeInteger(netMinor))
    throw new RangeError(`Expected whole cents, got ${netMinor}`);
  if (!Number.isInteger(ratePercent) || ratePercent < 0 || ratePercent > 100) {
    throw new RangeError(`Expected a whole percent, got ${ratePercent}`);
  }
  const hundredths = Math.abs(netMinor) * ratePercent;
  if (!Number.isSafeInteger(hundredths)) throw new RangeError(`Amount too large: ${netMinor}`);
  const rounded = (hundredths - (hundredths % 100)) / 100 + (hundredths % 100 >= 50 ? 1 : 0);
  const vatMinor = netMinor < 0 ? -rounded : rounded;
  return {
    netMinor,
    vatMinor: vatMinor === 0 ? 0 : vatMinor,
    grossMinor: netMinor + vatMinor,
    ratePercent,
  };
}
