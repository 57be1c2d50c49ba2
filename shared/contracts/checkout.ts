import * as z from 'zod/mini';
import { quantityIsValidForEdition, type Edition } from '../pricing/index.ts';
import { normalizeVatId, vatIdProblem } from '../pricing/vat.ts';
import {
  buyerAddressFields,
  buyerAddressLimits,
  buyerAddressMessages,
  buyerStateCheck,
  buyerStateProblem,
  buyerVatIdCheck,
  countryField,
  stateField,
  vatIdField,
} from './buyer-address.ts';
import { optionalLine, requiredLine } from './fields.ts';
import { licenceHolderEmailField, licenceHolderMessages } from './licence-holder.ts';
import { validationMessages } from './messages.ts';

/** The longest URL or licence key the checkout accepts (far above any real one). */
const URL_MAX_LENGTH = 2048;
const LICENCE_KEY_MAX_LENGTH = 100;

export const checkoutMessages = {
  quantityInvalid: 'The quantity does not fit the edition.',
  urlInvalid: 'Expected an absolute http(s) URL.',
  urlTooLong: `A URL can be at most ${URL_MAX_LENGTH} characters long.`,
  keyTooLong: `A licence key has at most ${LICENCE_KEY_MAX_LENGTH} characters.`,
  notText: 'Expected text.',
  quoteLinkInvalid: 'This quote link is not valid. Use the “Accept this quote” link in your quote.',
  quotePlanDiffers: 'A checkout that accepts a quote must be for the plan the quote names.',
  quoteBuyerDiffers:
    'A checkout that accepts a quote is for the company, address and VAT ID the quote names. For other details, get a new quote.',
  /** The offer is to businesses only (imprint, EULA): the company is named on every checkout. */
  companyNameRequired:
    'You must enter your company name: Orgsmith licences are sold to businesses only.',
} as const;

/** The company name's limit, as on quotes and invoice orders. */
const COMPANY_NAME_MAX_LENGTH = 200;

/**
 * The buyer of a card checkout (decision 219): what a quote asks, less the e-mail address (the
 * provider's page asks it) and the purchase order. All optional here; `checkoutBuyerCheck` says
 * what a checkout needs: a company always, the address for a paid plan, none of it when a
 * quote's link names the buyer.
 */
const checkoutBuyerFields = {
  companyName: optionalLine(COMPANY_NAME_MAX_LENGTH, validationMessages.companyTooLong),
  addressLine: optionalLine(
    buyerAddressLimits.addressLine,
    buyerAddressMessages.addressLineTooLong,
  ),
  postalCode: optionalLine(buyerAddressLimits.postalCode, buyerAddressMessages.postalCodeTooLong),
  city: optionalLine(buyerAddressLimits.city, buyerAddressMessages.cityTooLong),
  state: stateField,
  country: z.optional(countryField),
  vatId: vatIdField,
};

const returnUrl = z
  .url({ protocol: /^https?$/, error: checkoutMessages.urlInvalid })
  .check(z.maxLength(URL_MAX_LENGTH, checkoutMessages.urlTooLong));

/**
 * `POST /account/v1/checkout` (docs/product-rules.md#data checkout session request). The quantity is the size of
 * the pricing selector and must fit the edition per the pricing engine (Starter 3, Pro 4–24,
 * Enterprise 25); the return URLs must be on our own origin (checked by the service, which
 * knows it). An empty trial key counts as none.
 */
export const checkoutRequestSchema = z
  .strictObject({
    edition: z.enum(['Starter', 'Pro', 'Enterprise']),
    quantity: z.int(),
    billingPeriod: z.enum(['monthly', 'yearly']),
    billingCurrency: z.enum(['USD', 'EUR']),
    trialLicenseKeyToConvert: z.pipe(
      z.optional(
        z.nullable(
          z
            .string({ error: checkoutMessages.notText })
            .check(z.trim(), z.maxLength(LICENCE_KEY_MAX_LENGTH, checkoutMessages.keyTooLong)),
        ),
      ),
      z.transform((value) => (value ? value : undefined)),
    ),
    /**
     * Set by the quote's accept page: the token of the quote's accept link, so the paid checkout
     * accepts that quote (once, decisions 154, 214).
     */
    quoteToken: z.optional(
      z.nullable(
        z.string().check(z.regex(/^[A-Za-z0-9_-]{32}$/, checkoutMessages.quoteLinkInvalid)),
      ),
    ),
    successUrl: returnUrl,
    cancelUrl: returnUrl,
    ...checkoutBuyerFields,
    /** Who receives the licence key, when not the paying address (decision 223); paid plans only. */
    licenceHolderEmail: licenceHolderEmailField,
  })
  .check(
    z.refine((request) => quantityIsValidForEdition(request.edition, request.quantity), {
      path: ['quantity'],
      error: checkoutMessages.quantityInvalid,
    }),
    z.superRefine((request, context) => {
      const issue = (path: string, message: string) =>
        context.addIssue({ code: 'custom', path: [path], message, input: undefined });
      // A quote's link names the buyer; whatever else is sent must match it (the service checks).
      const quoted = Boolean(request.quoteToken);
      // A free licence goes to whoever orders it, one address at a time (decision 158).
      if (request.edition === 'Starter' && request.licenceHolderEmail)
        issue('licenceHolderEmail', licenceHolderMessages.notForStarter);
      if (!quoted && !request.companyName)
        issue('companyName', checkoutMessages.companyNameRequired);
      if (!quoted && request.edition !== 'Starter') {
        if (!request.addressLine) issue('addressLine', buyerAddressMessages.addressLineRequired);
        if (!request.postalCode) issue('postalCode', buyerAddressMessages.postalCodeRequired);
        if (!request.city) issue('city', buyerAddressMessages.cityRequired);
        if (!request.country) issue('country', buyerAddressMessages.countryRequired);
      }
      if (request.country) {
        const vatProblem = vatIdProblem(
          request.country,
          request.vatId && normalizeVatId(request.vatId, request.country),
        );
        if (vatProblem) issue('vatId', vatProblem);
        const stateProblem = buyerStateProblem(request.country, request.state);
        if (stateProblem) issue('state', stateProblem);
      } else if (request.vatId) {
        issue('country', buyerAddressMessages.countryRequired);
      } else if (request.state) {
        issue('country', buyerAddressMessages.countryRequired);
      }
    }),
  );

/**
 * The checkout dialog's fields (decision 219): a paid plan asks what a quote asks, less the
 * e-mail address (the payment page asks it) and the purchase order; Starter only the company.
 */
const companyNameField = requiredLine(
  checkoutMessages.companyNameRequired,
  COMPANY_NAME_MAX_LENGTH,
  validationMessages.companyTooLong,
);
export const checkoutFormSchemas = {
  paid: z
    .object({
      companyName: companyNameField,
      ...buyerAddressFields,
      licenceHolderEmail: licenceHolderEmailField,
    })
    .check(buyerVatIdCheck, buyerStateCheck),
  free: z.object({ companyName: companyNameField }),
};

export type CheckoutRequest = z.output<typeof checkoutRequestSchema>;
export type CheckoutRequestInput = z.input<typeof checkoutRequestSchema>;

/** The answer: the site reads `sessionId` (docs/product-rules.md#service-calls) and sends the buyer to `url`. */
export const checkoutResponseSchema = z
  .object({
    sessionId: z.string(),
    url: z
      .string()
      .check(z.describe('Where to send the buyer: the provider’s hosted checkout page.')),
  })
  .register(z.globalRegistry, { id: 'CheckoutSession' });

export type CheckoutResponse = z.output<typeof checkoutResponseSchema>;

/** What the checkout-success page says about the licence of a checkout session. */
export type CheckoutStatus =
  /** The licence exists and its e-mail is queued: "on its way". */
  | { state: 'issued'; edition: Edition; quantity: number; email: string; converted: boolean }
  /** Paid, but the licence is not there yet (payment still processing). */
  | { state: 'processing' }
  /** The buyer left the checkout without paying; nothing was charged. */
  | { state: 'open' }
  | { state: 'expired' }
  /** No session, or not one of ours. */
  | { state: 'unknown' };

/** The success page's read of a checkout session (decision 125). */
export interface CheckoutStatusReading {
  status: CheckoutStatus;
  /** Set when this client looked up too many sessions: nothing was asked, the page says 429. */
  retryAfterSeconds?: number;
}
