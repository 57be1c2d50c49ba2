import * as z from 'zod/mini';
import { countryNames, isCountryCode } from '../countries.ts';
import { hasSubdivisions, isSubdivisionOf, subdivisionLabel } from '../subdivisions.ts';
import { VAT_ID_INPUT_MAX, normalizeVatId, vatIdProblem, vatMessages } from '../pricing/vat.ts';
import { requiredLine, singleLineCheck } from './fields.ts';
import { validationMessages as m } from './messages.ts';

/**
 * A company's postal address and VAT ID, in the fields an invoice prints them from (decision
 * 179): the quote and the order by invoice take the same fields, with the same limits and
 * messages, and the VAT rule (decision 177) reads the country and VAT ID.
 */
export const buyerAddressLimits = {
  addressLine: 200,
  postalCode: 20,
  city: 100,
  state: 3,
  /** Longer than any VAT ID with spaces and dots, short enough to refuse junk at once. */
  vatIdInput: VAT_ID_INPUT_MAX,
} as const;

export const buyerAddressMessages = {
  addressLineRequired: 'You must enter the street and number.',
  addressLineTooLong: `The street and number can be at most ${buyerAddressLimits.addressLine} characters long.`,
  postalCodeRequired: 'You must enter the postal code.',
  postalCodeTooLong: `The postal code can be at most ${buyerAddressLimits.postalCode} characters long.`,
  cityRequired: 'You must enter the city.',
  cityTooLong: `The city can be at most ${buyerAddressLimits.city} characters long.`,
  countryRequired: vatMessages.countryInvalid,
  /** The United States, Canada and Australia: their addresses name a state or province. */
  stateRequired: (country: 'US' | 'CA' | 'AU') =>
    `Choose the ${subdivisionLabel(country).toLowerCase()} from the list.`,
  stateNotUsed: (country: string) =>
    `Addresses in ${isCountryCode(country) ? countryNames[country] : country} have no state here: leave it empty.`,
  vatIdTooLong: `A VAT ID can be at most ${buyerAddressLimits.vatIdInput} characters long.`,
} as const;

const msg = buyerAddressMessages;

/** An ISO 3166-1 alpha-2 code from the list (`de` is taken as `DE`); anything else is refused. */
export const countryField = z.pipe(
  z.pipe(
    z.string({ error: msg.countryRequired }).check(z.maxLength(2, msg.countryRequired)),
    z.transform((value) => value.trim().toUpperCase()),
  ),
  z.string().check(z.refine(isCountryCode, msg.countryRequired)),
);

/** Optional; spaces, dots and hyphens dropped and upper-cased here, checked against the country below. */
export const vatIdField = z.pipe(
  z.optional(
    z.nullable(
      z
        .string({ error: m.notText })
        .check(z.maxLength(buyerAddressLimits.vatIdInput, msg.vatIdTooLong), singleLineCheck()),
    ),
  ),
  z.transform((value) => normalizeVatId(value ?? '') || undefined),
);

/** Optional in the schema; `buyerStateCheck` says when it is required. Upper-cased (`ca` → `CA`). */
export const stateField = z.pipe(
  z.optional(
    z.nullable(
      z.string({ error: m.notText }).check(z.maxLength(buyerAddressLimits.state, m.notText)),
    ),
  ),
  z.transform((value) => value?.trim().toUpperCase() || undefined),
);

export const buyerAddressFields = {
  addressLine: requiredLine(
    msg.addressLineRequired,
    buyerAddressLimits.addressLine,
    msg.addressLineTooLong,
  ),
  postalCode: requiredLine(
    msg.postalCodeRequired,
    buyerAddressLimits.postalCode,
    msg.postalCodeTooLong,
  ),
  city: requiredLine(msg.cityRequired, buyerAddressLimits.city, msg.cityTooLong),
  state: stateField,
  country: countryField,
  vatId: vatIdField,
};

/**
 * The check of a request with `country` and `state` (decision 219): a state from the list in the
 * countries whose addresses need one (US, CA, AU), none elsewhere. Reported on `state`.
 */
export const buyerStateCheck = z.superRefine(
  (request: { country: string; state?: string | undefined }, context) => {
    const problem = buyerStateProblem(request.country, request.state);
    if (problem)
      context.addIssue({ code: 'custom', path: ['state'], message: problem, input: request.state });
  },
);

/** What is wrong with a state for `country`, or null (an unknown country is the country's problem). */
export function buyerStateProblem(country: string, state: string | undefined): string | null {
  if (!isCountryCode(country)) return null;
  if (hasSubdivisions(country)) {
    return state && isSubdivisionOf(country, state)
      ? null
      : buyerAddressMessages.stateRequired(country);
  }
  return state ? buyerAddressMessages.stateNotUsed(country) : null;
}

/**
 * The check of a request with `country` and `vatId`: the VAT ID must fit the country's VAT ID
 * format (`vatIdProblem`), reported on `vatId`. Runs only when the country itself is valid.
 */
export const buyerVatIdCheck = z.superRefine(
  (request: { country: string; vatId?: string | undefined }, context) => {
    if (!isCountryCode(request.country)) return;
    const problem = vatIdProblem(
      request.country,
      request.vatId && normalizeVatId(request.vatId, request.country),
    );
    if (problem)
      context.addIssue({ code: 'custom', path: ['vatId'], message: problem, input: request.vatId });
  },
);

/** The VAT ID as stored and printed: prefixed with the state's code when it was typed without. */
export function buyerVatId(request: {
  country: string;
  vatId?: string | undefined;
}): string | undefined {
  return request.vatId ? normalizeVatId(request.vatId, request.country) : undefined;
}
