import { apiFetch, readErrorCode } from '#app/http/api-fetch.ts';
import {
  invoiceOrderPlacedSchema,
  type InvoiceCheckoutRequestInput,
} from '#shared/contracts/invoice-checkout.ts';
import { invoiceOrderErrorMessage } from '#shared/contracts/invoice-order-messages.ts';

/** The first field message of a 400 answer (`{ issues: [{ field, message }] }`), if it has one. */
async function firstIssue(response: Response): Promise<string | undefined> {
  const body: unknown = await response.json().catch(() => null);
  if (typeof body !== 'object' || body === null || !('issues' in body)) return undefined;
  if (!Array.isArray(body.issues)) return undefined;
  const [issue]: unknown[] = body.issues;
  if (typeof issue !== 'object' || issue === null || !('message' in issue)) return undefined;
  return typeof issue.message === 'string' ? issue.message : undefined;
}

/**
 * `POST /account/v1/checkout/invoice` from the browser (the quote dialog and the quote's accept
 * page): where the link to confirm the order went, or the message to show (a field's message for
 * a 400, else the error catalogue's).
 */
export async function placeInvoiceOrder(
  accountApiUrl: string,
  request: InvoiceCheckoutRequestInput,
  signal: AbortSignal,
): Promise<{ ok: true; billingEmail: string } | { ok: false; message: string }> {
  const response = await apiFetch(`${accountApiUrl}/account/v1/checkout/invoice`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
    trustedBase: accountApiUrl,
    signal,
  });
  if (response.status === 400) {
    return {
      ok: false,
      message: (await firstIssue(response)) ?? invoiceOrderErrorMessage(undefined),
    };
  }
  if (!response.ok) {
    return { ok: false, message: invoiceOrderErrorMessage(await readErrorCode(response)) };
  }
  const body = invoiceOrderPlacedSchema.safeParse(await response.json());
  return body.success
    ? { ok: true, billingEmail: body.data.billingEmail }
    : { ok: false, message: invoiceOrderErrorMessage(undefined) };
}
