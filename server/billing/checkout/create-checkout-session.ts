import { randomBytes } from 'node:crypto';
import type { CheckoutRequest, CheckoutResponse } from '#shared/contracts/checkout.ts';
import type { Database } from '#server/platform/db/database.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import { hashLicenceKey, parseLicenceKey } from '#server/licensing/licences/licence-key.ts';
import {
  createLicenceRepository,
  type Licence,
} from '#server/licensing/licences/licence-repository.ts';
import { quoteToAccept } from '../quotes/read-quote.ts';
import type { PaymentProvider } from '../subscriptions/payment-provider.ts';

export type CreateCheckoutResult =
  | { ok: true; session: CheckoutResponse }
  | { ok: false; code: 'ReturnUrlForeign'; field: 'successUrl' | 'cancelUrl'; detail: string }
  | { ok: false; code: 'LicenseKeyUnknown' | 'SubscriptionAlreadyExists'; detail: string }
  | { ok: false; code: 'QuoteLinkInvalid' | 'QuotePlanDiffers'; field: 'quoteToken' }
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
 * accepted nor expired (decision 214; the paid checkout accepts it in the subscription sync).
 * The amount is never sent: the provider prices the order from the engine's catalogue.
 */
export interface CheckoutDeps {
  db: Database;
  payments: PaymentProvider;
  secretKey: string;
  publicBaseUrl: string;
  clock: () => Date;
}

/** The checkout's dependencies, from the app's. */
export function checkoutDepsOf(deps: BillingPorts): CheckoutDeps {
  return {
    db: deps.database.db,
    payments: deps.payments,
    secretKey: deps.secretKey,
    publicBaseUrl: deps.env.PUBLIC_BASE_URL,
    clock: deps.clock,
  };
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

  let quoteNumber: string | null = null;
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
  }

  const session = await deps.payments.createCheckoutSession({
    checkoutRequestId: `chk_${randomBytes(16).toString('base64url')}`,
    edition: request.edition,
    quantity: request.quantity,
    billingPeriod: request.billingPeriod,
    currency: request.billingCurrency,
    customerEmail: trial?.email ?? null,
    licenceIdToConvert: trial?.id ?? null,
    quoteNumber,
    successUrl: request.successUrl,
    cancelUrl: request.cancelUrl,
  });
  return { ok: true, session };
}
