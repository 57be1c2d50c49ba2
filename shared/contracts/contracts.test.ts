import { describe, expect, it } from 'vitest';
import { billingPortalRequestSchema } from './billing-portal.ts';
import { contactMessageSchema } from './contact.ts';
import { fieldErrors } from './fields.ts';
import {
  billingErrorMessage,
  failureMessages,
  rateLimitMessage,
  trialErrorMessage,
} from './messages.ts';
import { trialRequestQuerySchema } from './trial.ts';

describe('contact message contract', () => {
  it('names each missing field with the docs/product-rules.md#validation text', () => {
    expect(fieldErrors(contactMessageSchema, {})).toEqual({
      name: 'You must enter your name.',
      emailAddress: 'You must enter an email address.',
      message: 'A message text is required.',
    });
    expect(
      fieldErrors(contactMessageSchema, { name: '  ', emailAddress: ' ', message: '\n' }),
    ).toEqual({
      name: 'You must enter your name.',
      emailAddress: 'You must enter an email address.',
      message: 'A message text is required.',
    });
  });

  it.each([
    'jane',
    'jane@',
    '@example.com',
    'jane@example',
    'ja ne@example.com',
    'jane..doe@example.com',
    '.jane@example.com',
    `${'a'.repeat(65)}@example.com`,
  ])('refuses %s as an e-mail address', (emailAddress) => {
    expect(fieldErrors(contactMessageSchema, { name: 'J', emailAddress, message: 'm' })).toEqual({
      emailAddress: 'This is not a valid email address.',
    });
  });

  it.each([
    'jane@example.com',
    'Jane.Doe+trial@sub.example.co.uk',
    "o'brien@example.ie",
    ' jane@example.com ',
  ])('accepts %s', (emailAddress) => {
    expect(fieldErrors(contactMessageSchema, { name: 'J', emailAddress, message: 'm' })).toEqual(
      {},
    );
  });

  it('trims values, drops blank optional fields and bounds lengths', () => {
    const parsed = contactMessageSchema.parse({
      name: ' Jane ',
      emailAddress: 'jane@example.com ',
      message: ' Hello\nthere ',
      role: '  ',
      company: null,
    });
    expect(parsed).toEqual({
      name: 'Jane',
      emailAddress: 'jane@example.com',
      message: 'Hello\nthere',
      role: undefined,
      company: undefined,
    });
    expect(
      fieldErrors(contactMessageSchema, {
        name: 'n'.repeat(201),
        emailAddress: 'jane@example.com',
        message: 'm'.repeat(5001),
        company: 'Acme\nBcc: x@y.z',
      }),
    ).toEqual({
      name: 'Your name can be at most 200 characters long.',
      message: 'Your message can be at most 5000 characters long.',
      company: 'Please keep this on a single line.',
    });
  });

  it('refuses unknown fields and wrong types', () => {
    const valid = { name: 'J', emailAddress: 'j@example.com', message: 'm' };
    expect(contactMessageSchema.safeParse({ ...valid, extra: 1 }).success).toBe(false);
    expect(fieldErrors(contactMessageSchema, { ...valid, name: 42 })).toEqual({
      name: 'Expected text.',
    });
  });
});

describe('trial and portal contracts', () => {
  it('reads the trial query and refuses unknown parameters', () => {
    expect(
      trialRequestQuerySchema.parse({
        emailAddress: 'a@b.io',
        productId: 'orgsmith-cli',
        referralCode: '',
      }),
    ).toEqual({ emailAddress: 'a@b.io', productId: 'orgsmith-cli', referralCode: undefined });
    expect(
      trialRequestQuerySchema.safeParse({ emailAddress: 'a@b.io', productId: 'x', utm: '1' })
        .success,
    ).toBe(false);
  });

  it('requires a valid e-mail address for the portal link', () => {
    expect(fieldErrors(billingPortalRequestSchema, { emailAddress: 'nope' })).toEqual({
      emailAddress: 'This is not a valid email address.',
    });
  });
});

describe('error catalogue (docs/product-rules.md#messages)', () => {
  it('maps trial errors by code and everything else to the licensing default', () => {
    expect(trialErrorMessage('TrialLicenseAlreadyUsed')).toBe(
      'The email address has already been used for a trial license which has since expired.',
    );
    expect(trialErrorMessage('ReferralCodeInvalid')).toBe(
      'The referral code is not valid for this product.',
    );
    expect(trialErrorMessage('TooManyRequests')).toBe(failureMessages.licensing);
    expect(trialErrorMessage(undefined)).toBe(
      'Something went wrong when calling our licensing service. Please try again in a little while. If the problem persists, please contact our technical support.',
    );
  });

  it('maps billing errors by code and everything else to the billing default', () => {
    expect(billingErrorMessage('LicenseKeyUnknown')).toBe('This license key was not recognized.');
    expect(billingErrorMessage('SubscriptionAlreadyExists')).toBe(
      'This license key is already associated with a subscription.',
    );
    expect(billingErrorMessage('Whatever')).toBe(failureMessages.billing);
  });

  it('words the rate-limit answer in minutes', () => {
    expect(rateLimitMessage(30)).toBe('Too many requests. Please try again in 1 minute.');
    expect(rateLimitMessage(3599)).toBe('Too many requests. Please try again in 60 minutes.');
  });
});
