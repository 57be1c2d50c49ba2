import * as z from 'zod/mini';
import { isCountryCode } from '../countries.ts';
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
  vatIdTooLong: `A VAT ID can be at most ${buyerAddressLimits.vatIdInput} characters long.`,
} as const;

const msg = buyerAddressMessages;

/** An ISO 3166-1 alpha-2 code from the list (`de` is taken as `DE`); anything else is refused. */
const countryField = z.pipe(
  z.pipe(
    z.string({ error: msg.countryRequired }).check(z.maxLength(2, msg.countryRequired)),
    z.transform((value) => value.trim().toUpperCase()),
  ),
  z.string().check(z.refine(isCountryCode, msg.countryRequired)),
);

/** Optional; spaces, dots and hyphens dropped and upper-cased here, checked against the country below. */
const vatIdField = z.pipe(
  z.optional(
    z.nullable(
      z
        .string({ error: m.notText })
        .check(z.maxLength(buyerAddressLimits.vatIdInput, msg.vatIdTooLong), singleLineCheck()),
    ),
  ),
  z.transform((value) => normalizeVatId(value ?? '') || undefined),
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
  country: countryField,
  vatId: vatIdField,
};

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
