import { randomBytes } from 'node:crypto';
import type { CheckoutRequest, CheckoutResponse } from '#shared/contracts/checkout.ts';
import type { Database } from '#server/platform/db/database.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import { hashLicenceKey, parseLicenceKey } from '#server/licensing/licences/licence-key.ts';
import {
  createLicenceRepository,
  type Licence,
} from '#server/licensing/licences/licence-repository.ts';
import { buyerVatId } from '#shared/contracts/buyer-address.ts';
import { normalizeEmailAddress } from '#server/platform/email/normalize-email-address.ts';
import { quoteDocumentSchema } from '../quotes/quote-document.ts';
import type { StoredQuote } from '../quotes/quote-repository.ts';
import { quoteToAccept } from '../quotes/read-quote.ts';
import type { PaymentProvider } from '../subscriptions/payment-provider.ts';
import type { CheckoutBuyer } from '../subscriptions/payment-types.ts';
import { confirmVatId, viesClientOf } from '../vat/confirm-vat-id.ts';
import type { ViesClient } from '../vat/vies-client.ts';

export type CreateCheckoutResult =
  | { ok: true; session: CheckoutResponse }
  | { ok: false; code: 'ReturnUrlForeign'; field: 'successUrl' | 'cancelUrl'; detail: string }
  | { ok: false; code: 'LicenseKeyUnknown' | 'SubscriptionAlreadyExists'; detail: string }
  | { ok: false; code: 'QuoteLinkInvalid' | 'QuotePlanDiffers'; field: 'quoteToken' }
  | { ok: false; code: 'QuoteBuyerDiffers'; field: string }
  | { ok: false; code: 'LicenceHolderWithTrialKey'; field: 'licenceHolderEmail' }
  | { ok: false; code: 'QuoteAccepted' | 'QuoteExpired' };

/** Both return URLs must lead back to our own site (no open redirect through the provider). */
function onOrigin(url: string, origin: string): boolean {
  return new URL(url).origin === origin;
}

/**
 * Opens a checkout session for a validated request, checking in order of precedence:
 * return URLs on our origin → the trial key to convert is one we issued (else
 * LicenseKeyUnknown, also when it was revoked) → it is not tied to a subscription yet (else
 * SubscriptionAlreadyExists) → a quote it accepts is its link's, for the same plan, neither
 * accepted nor expired (decision 214; the paid checkout accepts it in the subscription sync) →
 * the buyer the request names matches the quote's (decision 219) → a licence holder beside a
 * trial key is the trial's own mailbox (else LicenceHolderWithTrialKey; decision 223). The
 * buyer's VAT ID is put to VIES here, as for a quote or invoice order (decision 210), and the
 * provider charges the VAT of the one rule. The amount is never sent: the provider prices the order from the engine's
 * catalogue, so a quote's card checkout is charged the quote's net and VAT.
 */
export interface CheckoutDeps {
  db: Database;
  payments: PaymentProvider;
  secretKey: string;
  publicBaseUrl: string;
  clock: () => Date;
  vies: ViesClient;
  logger?: BillingPorts['logger'] | undefined;
}

/** The checkout's dependencies, from the app's. */
export function checkoutDepsOf(deps: BillingPorts): CheckoutDeps {
  return {
    db: deps.database.db,
    payments: deps.payments,
    secretKey: deps.secretKey,
    publicBaseUrl: deps.env.PUBLIC_BASE_URL,
    clock: deps.clock,
    vies: viesClientOf(deps.env),
    logger: deps.logger,
  };
}

/** The buyer as the request names it (after the contract's checks), or null when it names none. */
function buyerOfRequest(request: CheckoutRequest): Omit<CheckoutBuyer, 'vatIdConfirmation'> | null {
  if (!request.companyName) return null;
  const country = request.country ?? null;
  return {
    companyName: request.companyName,
    address: {
      line1: request.addressLine ?? null,
      postalCode: request.postalCode ?? null,
      city: request.city ?? null,
      state: request.state ?? null,
      country,
    },
    vatId: country ? (buyerVatId({ country, vatId: request.vatId }) ?? null) : null,
  };
}

/**
 * The buyer a quote names (structured since decision 179), or null for an older quote. What the
 * request names besides must be the same: a checkout cannot move a quote to another country,
 * VAT ID or company (the first field that differs is returned).
 */
function buyerOfQuote(
  quote: StoredQuote,
  request: CheckoutRequest,
):
  | { ok: true; buyer: Omit<CheckoutBuyer, 'vatIdConfirmation'> | null }
  | { ok: false; field: string } {
  const document = quoteDocumentSchema.parse(quote.document);
  const address = document.buyer.address;
  if (!address) return { ok: true, buyer: buyerOfRequest(request) };
  const quoted: Omit<CheckoutBuyer, 'vatIdConfirmation'> = {
    companyName: document.buyer.companyName,
    address: {
      line1: address.addressLine,
      postalCode: address.postalCode,
      city: address.city,
      state: address.state ?? null,
      country: address.country,
    },
    vatId: document.buyer.vatId ?? null,
  };
  const sentVatId = request.vatId
    ? buyerVatId({ country: request.country ?? address.country, vatId: request.vatId })
    : undefined;
  const sent: [string, string | null | undefined, string | null][] = [
    ['companyName', request.companyName, quoted.companyName],
    ['addressLine', request.addressLine, quoted.address.line1],
    ['postalCode', request.postalCode, quoted.address.postalCode],
    ['city', request.city, quoted.address.city],
    ['state', request.state, quoted.address.state ?? null],
    ['country', request.country, quoted.address.country],
    ['vatId', sentVatId, quoted.vatId],
  ];
  for (const [field, value, expected] of sent) {
    if (value !== undefined && value !== null && value !== expected) return { ok: false, field };
  }
  // A VAT ID the quote has but the request leaves out is the quote's: nothing to compare.
  return { ok: true, buyer: quoted };
}

export async function createCheckoutSession(
  deps: CheckoutDeps,
  request: CheckoutRequest,
): Promise<CreateCheckoutResult> {
  const origin = new URL(deps.publicBaseUrl).origin;
  for (const field of ['successUrl', 'cancelUrl'] as const) {
    if (!onOrigin(request[field], origin)) {
      return {
        ok: false,
        code: 'ReturnUrlForeign',
        field,
        detail: `${field}: must be a page of ${origin}`,
      };
    }
  }

  let trial: Licence | undefined;
  if (request.trialLicenseKeyToConvert) {
    const parsed = parseLicenceKey(request.trialLicenseKeyToConvert);
    if (parsed.ok) {
      trial = await createLicenceRepository(deps.db).findByKeyHash(
        hashLicenceKey(deps.secretKey, parsed.key),
      );
    }
    // A revoked key is answered like an unknown one (decision 086).
    if (!trial || trial.revokedAt) {
      return { ok: false, code: 'LicenseKeyUnknown', detail: 'No licence has this key.' };
    }
    // Only a trial that no subscription has taken over yet can be converted.
    if (trial.subscriptionId !== null || trial.type !== 'Trial') {
      return {
        ok: false,
        code: 'SubscriptionAlreadyExists',
        detail: 'This licence key already belongs to a subscription.',
      };
    }
  }
  // A converted trial keeps its address: a holder beside it must be that mailbox (decision 223).
  let licenceHolderEmail = request.licenceHolderEmail ?? null;
  if (trial && licenceHolderEmail) {
    if (normalizeEmailAddress(licenceHolderEmail) !== normalizeEmailAddress(trial.email)) {
      return { ok: false, code: 'LicenceHolderWithTrialKey', field: 'licenceHolderEmail' };
    }
    licenceHolderEmail = null;
  }

  let quoteNumber: string | null = null;
  let buyer = buyerOfRequest(request);
  if (request.quoteToken) {
    const quote = await quoteToAccept(
      deps,
      request.quoteToken,
      { ...request, currency: request.billingCurrency },
      deps.clock(),
    );
    if (!quote.ok) {
      return quote.code === 'QuoteLinkInvalid' || quote.code === 'QuotePlanDiffers'
        ? { ok: false, code: quote.code, field: 'quoteToken' }
        : { ok: false, code: quote.code };
    }
    quoteNumber = quote.quote.number;
    const quoted = buyerOfQuote(quote.quote, request);
    if (!quoted.ok) return { ok: false, code: 'QuoteBuyerDiffers', field: quoted.field };
    buyer = quoted.buyer;
  }

  // Asked again rather than taken from the quote: the payment is what is taxed (decision 210).
  const country = buyer?.address.country;
  const vatIdConfirmation =
    buyer && country ? await confirmVatId(deps, { country, vatId: buyer.vatId }) : null;

  const session = await deps.payments.createCheckoutSession({
    checkoutRequestId: `chk_${randomBytes(16).toString('base64url')}`,
    edition: request.edition,
    quantity: request.quantity,
    billingPeriod: request.billingPeriod,
    currency: request.billingCurrency,
    customerEmail: trial?.email ?? null,
    licenceIdToConvert: trial?.id ?? null,
    quoteNumber,
    buyer: buyer ? { ...buyer, vatIdConfirmation } : null,
    licenceHolderEmail,
    successUrl: request.successUrl,
    cancelUrl: request.cancelUrl,
  });
  return { ok: true, session };
}
