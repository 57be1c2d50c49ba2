import { checkoutResponseSchema, type CheckoutRequestInput } from '#shared/contracts/checkout.ts';
import { billingErrorMessage } from '#shared/contracts/messages.ts';
import { apiFetch, readErrorCode } from '#app/http/api-fetch.ts';
import { isSafeRedirect } from '#app/http/is-safe-redirect.ts';

/**
 * Opens a checkout at the account service (docs/product-rules.md#service-calls) and sends the
 * buyer to the provider's page; resolves only when that did not happen, with the billing text to
 * show (docs/product-rules.md#messages).
 */
export async function startCheckout(
  accountApiUrl: string,
  request: CheckoutRequestInput,
  signal?: AbortSignal,
): Promise<{ ok: false; message: string } | { ok: true }> {
  try {
    const response = await apiFetch(`${accountApiUrl}/account/v1/checkout`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
      trustedBase: accountApiUrl,
      ...(signal ? { signal } : {}),
    });
    if (!response.ok) {
      return { ok: false, message: billingErrorMessage(await readErrorCode(response)) };
    }
    const body = checkoutResponseSchema.safeParse(await response.json());
    if (body.success && isSafeRedirect(body.data.url)) {
      window.location.assign(body.data.url);
      return { ok: true };
    }
  } catch {
    // Falls through to the billing default.
  }
  return { ok: false, message: billingErrorMessage(undefined) };
}
