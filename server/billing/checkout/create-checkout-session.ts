import { randomBytes } from 'node:crypto';
import type { CheckoutRequest, CheckoutResponse } from '#shared/contracts/checkout.ts';
import type { Database } from '#server/platform/db/database.ts';
import type { BillingPorts } from '#server/billing/billing-ports.ts';
import { hashLicenceKey, parseLicenceKey } from '#server/licensing/licences/licence-key.ts';
import {
  createLicenceRepository,
  type Licence,
} from '#server/licensing/licences/licence-repository.ts';
import type { PaymentProvider } from '../subscriptions/payment-provider.ts';

export type CreateCheckoutResult =
  | { ok: true; session: CheckoutResponse }
  | { ok: false; code: 'ReturnUrlForeign'; field: 'successUrl' | 'cancelUrl'; detail: string }
  | { ok: false; code: 'LicenseKeyUnknown' | 'SubscriptionAlreadyExists'; detail: string };

/** Both return URLs must lead back to our own site (no open redirect through the provider). */
function onOrigin(url: string, origin: string): boolean {
  return new URL(url).origin === origin;
}

/**
 * Opens a checkout session for a validated request, checking in order of precedence:
 * return URLs on our origin → the trial key to convert is one we issued (else
 * LicenseKeyUnknown, also when it was revoked) → it is not tied to a subscription yet (else
 * SubscriptionAlreadyExists).
 * The amount is never sent: the provider prices the order from the engine's catalogue.
 */
export interface CheckoutDeps {
  db: Database;
  payments: PaymentProvider;
  secretKey: string;
  publicBaseUrl: string;
}

/** The checkout's dependencies, from the app's. */
export function checkoutDepsOf(deps: BillingPorts): CheckoutDeps {
  return {
    db: deps.database.db,
    payments: deps.payments,
    secretKey: deps.secretKey,
    publicBaseUrl: deps.env.PUBLIC_BASE_URL,
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

  const session = await deps.payments.createCheckoutSession({
    checkoutRequestId: `chk_${randomBytes(16).toString('base64url')}`,
    edition: request.edition,
    quantity: request.quantity,
    billingPeriod: request.billingPeriod,
    currency: request.billingCurrency,
    customerEmail: trial?.email ?? null,
    licenceIdToConvert: trial?.id ?? null,
    successUrl: request.successUrl,
    cancelUrl: request.cancelUrl,
  });
  return { ok: true, session };
}
