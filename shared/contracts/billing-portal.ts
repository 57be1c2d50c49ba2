import * as z from 'zod/mini';
import { emailAddressField } from './fields.ts';

/** `POST /account/v1/manage` body and the portal-access form (docs/product-rules.md#data). */
export const billingPortalRequestSchema = z.strictObject({
  emailAddress: emailAddressField,
});

export type BillingPortalRequest = z.output<typeof billingPortalRequestSchema>;
