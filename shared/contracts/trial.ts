import * as z from 'zod/mini';
import { emailAddressField, optionalLine, requiredLine } from './fields.ts';
import { validationMessages as m } from './messages.ts';

export const REFERRAL_CODE_MAX_LENGTH = 64;

/**
 * The query of `POST /account/v1/licenses/trial` (docs/product-rules.md#data trial licence request); the request has
 * no body. Unknown parameters are refused.
 */
export const trialRequestQuerySchema = z.strictObject({
  emailAddress: emailAddressField,
  productId: requiredLine(m.productIdRequired, 100, m.productIdRequired),
  referralCode: optionalLine(REFERRAL_CODE_MAX_LENGTH, m.referralCodeTooLong),
});

export type TrialRequestQuery = z.output<typeof trialRequestQuerySchema>;

/** The fields of the trial dialog, validated with the same rules. */
export const trialFormSchema = z.object({
  emailAddress: emailAddressField,
  referralCode: optionalLine(REFERRAL_CODE_MAX_LENGTH, m.referralCodeTooLong),
});
