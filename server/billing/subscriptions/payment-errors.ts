/**
 * Failures of the payment boundary, by code, so routes map them without knowing the provider:
 * SignatureInvalid → 400 on webhooks; EventInvalid → 400 on webhooks (signed, but not an event
 * this service can read: no `data`, or an object of another shape); NotFound → unknown session or subscription;
 * NotConfigured → a price is missing from the provider's catalogue (run `npm run admin -- stripe sync`);
 * CreditRefused → a credit or refund the invoice does not allow (more than is left, not paid);
 * Unavailable → the provider could not be reached or refused the call.
 */
export type PaymentErrorCode =
  | 'SignatureInvalid'
  | 'EventInvalid'
  | 'NotFound'
  | 'NotConfigured'
  | 'CreditRefused'
  | 'Unavailable';

export class PaymentError extends Error {
  readonly code: PaymentErrorCode;

  constructor(code: PaymentErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PaymentError';
    this.code = code;
  }
}

export function isPaymentError(error: unknown, code?: PaymentErrorCode): error is PaymentError {
  return error instanceof PaymentError && (code === undefined || error.code === code);
}
