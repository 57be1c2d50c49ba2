import { errorCodes } from './error-codes.ts';

/**
 * Every text the site shows for a form result or an error code, word for word from docs/product-rules.md#validation and
 * §8 where the spec names them: one source for the dialogs (and the API's messages).
 */
export const validationMessages = {
  nameRequired: 'You must enter your name.',
  emailRequired: 'You must enter an email address.',
  emailInvalid: 'This is not a valid email address.',
  messageRequired: 'A message text is required.',
  nameTooLong: 'Your name can be at most 200 characters long.',
  messageTooLong: 'Your message can be at most 5000 characters long.',
  roleTooLong: 'Your role can be at most 200 characters long.',
  companyTooLong: 'The company name can be at most 200 characters long.',
  referralCodeTooLong: 'A referral code has at most 64 characters.',
  singleLine: 'Please keep this on a single line.',
  invisibleCharacter:
    'This contains an invisible control or formatting character (such as a text-direction mark). Please type it again without it.',
  productIdRequired: 'The product id is required.',
  notText: 'Expected text.',
  companyNameRequired: 'You must enter your company name.',
  billingAddressTooLong: 'The billing address can be at most 500 characters long.',
  billingAddressTooManyLines: 'The billing address can have at most 6 lines.',
  vatIdInvalid:
    'This is not a valid VAT ID: two letters for the country, then 2 to 13 letters or digits, e.g. DE123456789.',
  purchaseOrderTooLong: 'A purchase-order reference can be at most 100 characters long.',
  quoteEditionInvalid: 'Quotes are made for Pro and Enterprise.',
} as const;

export const successMessages = {
  contact:
    'Thank you — your message was successfully sent! We will usually be in touch with you within a day or so.',
  portalAccess:
    "A message was sent to the email address you provided. If you don't see it in your inbox, make sure you check your junk mail folder too.",
} as const;

export const failureMessages = {
  contact:
    'Something went wrong when calling our backend service. Please try again in a little while. If the problem persists, please contact our technical support.',
  billing:
    'Something went wrong when calling our billing service. Please try again in a little while. If the problem persists, please contact our technical support.',
  licensing:
    'Something went wrong when calling our licensing service. Please try again in a little while. If the problem persists, please contact our technical support.',
} as const;

const billingErrorMessages: Record<string, string> = {
  [errorCodes.licenseKeyUnknown]: 'This license key was not recognized.',
  [errorCodes.subscriptionAlreadyExists]:
    'This license key is already associated with a subscription.',
  [errorCodes.quoteAlreadyAccepted]:
    'This quote has already been accepted; a quote is ordered once. Get a new quote for another licence.',
  [errorCodes.quoteExpired]:
    'This quote has expired; its prices no longer hold. Get a new quote for the same plan.',
};

const trialErrorMessages: Record<string, string> = {
  [errorCodes.trialLicenseAlreadyUsed]:
    'The email address has already been used for a trial license which has since expired.',
  [errorCodes.referralCodeInvalid]: 'The referral code is not valid for this product.',
};

/** Product rules (docs/product-rules.md#messages): a billing-service error by its `Error` field, else the billing default. */
export function billingErrorMessage(code: string | undefined): string {
  return (code && billingErrorMessages[code]) || failureMessages.billing;
}

/** Product rules (docs/product-rules.md#messages): a trial-licence error by its `Error` field, else the licensing default. */
export function trialErrorMessage(code: string | undefined): string {
  return (code && trialErrorMessages[code]) || failureMessages.licensing;
}

/** The API's text for a 429 answer. */
export function rateLimitMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many requests. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}

/** A free checkout for an address that has had its free licences for the day (decision 158). */
export function freeLicenceLimitMessage(retryAfterSeconds: number): string {
  const hours = Math.max(1, Math.ceil(retryAfterSeconds / 3600));
  return `This address has already received several free licences today. Please try again in ${hours} hour${hours === 1 ? '' : 's'}, or use the licence key you already have.`;
}

/**
 * The portal dialog's error (its wording is not in the spec): too many requests gets its own
 * advice, everything else the billing default.
 */
export function portalAccessErrorMessage(code: string | undefined): string {
  if (code === errorCodes.tooManyRequests) {
    return 'You have asked for several links in a short time. Please wait a while, then try again. If the problem persists, please contact our technical support.';
  }
  return failureMessages.billing;
}

/** The trial dialog's success text: the key is on its way, and where else to look. */
export function trialSuccessMessage(emailAddress: string): string {
  return `Your licence key is on its way to ${emailAddress}. It usually arrives within a few minutes; if you don't see it in your inbox, make sure you check your junk mail folder too.`;
}

/** The quote dialog's success text: the PDF is ready here and on its way by e-mail. */
export function quoteSuccessMessage(number: string, emailAddress: string): string {
  return `Your quote ${number} is ready. We have also sent it to ${emailAddress}; it is valid for 30 days.`;
}

/** The quote dialog's error: too many quotes gets its own advice, everything else the billing default. */
export function quoteErrorMessage(code: string | undefined): string {
  if (code === errorCodes.tooManyRequests) {
    return 'You have asked for several quotes in a short time. Please wait a while, then try again. If the problem persists, please contact our technical support.';
  }
  return failureMessages.billing;
}

/** What the portal dialog says when a visitor arrives from a billing-portal link that did not work. */
export const portalLinkNotices = {
  expired:
    'The link you followed has expired or was already used. Links to the billing portal work once and for 24 hours: enter your email address to receive a new one.',
  unavailable:
    'We could not open the billing portal just now. Please follow the link in your email again in a little while, or request a new one below.',
} as const;
