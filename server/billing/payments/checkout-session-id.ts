import { z } from 'zod';
import type { PaymentProviderName } from '../subscriptions/payment-types.ts';

/**
 * Stripe's `cs_test_…` / `cs_live_…`. Stripe may change an id's length and alphabet without
 * notice, so only the prefix, letters, digits and `_`, and its 255-character ceiling are checked.
 */
const stripeCheckoutSessionId = z
  .string()
  .max(255)
  .regex(/^cs_[A-Za-z0-9_]{8,}$/);

/** The local provider's own: `localId('lcs')`, 24 random bytes in base64url. */
const localCheckoutSessionId = z.string().regex(/^lcs_[A-Za-z0-9_-]{32}$/);

const checkoutSessionIds = {
  stripe: stripeCheckoutSessionId,
  local: localCheckoutSessionId,
} satisfies Record<PaymentProviderName, z.ZodType<string>>;

/**
 * Whether a value can be a checkout session id of this provider: anything else is answered
 * without asking the provider (issue 17, decision 125).
 */
export function isCheckoutSessionId(
  provider: PaymentProviderName,
  value: string | null | undefined,
): value is string {
  return checkoutSessionIds[provider].safeParse(value).success;
}
