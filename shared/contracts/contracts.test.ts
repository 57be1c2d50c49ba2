import { describe, expect, it } from 'vitest';
import { billingPortalRequestSchema } from './billing-portal.ts';
import { contactMessageSchema } from './contact.ts';
import { fieldErrors } from './fields.ts';
import { invoiceCheckoutFormSchema, invoiceCheckoutRequestSchema } from './invoice-checkout.ts';
import {
  billingErrorMessage,
  failureMessages,
  rateLimitMessage,
  trialErrorMessage,
} from './messages.ts';
import { quoteFormSchema, quoteRequestSchema } from './quotes.ts';
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

describe('visitor text refuses control and format characters (decision 208)', () => {
  const invisible =
    'This contains an invisible control or formatting character (such as a text-direction mark). Please type it again without it.';
  const hostile = {
    'ESC (OSC title)': 'Acme\u001b]0;owned\u0007',
    'C1 CSI': 'Acme\u009b2J',
    DEL: 'Acme\u007f',
    'bidi override': 'Acme \u202eexe.txt',
    'bidi isolate': 'Acme \u2066x\u2069',
    'zero-width space': 'evil\u200b.example',
    NUL: 'Acme\u0000',
  };
  const quote = {
    companyName: 'Acme GmbH',
    emailAddress: 'buyer@example.com',
    addressLine: 'Hauptstraße 1',
    postalCode: '10115',
    city: 'Berlin',
    country: 'DE',
    purchaseOrder: 'PO-1',
    edition: 'Enterprise',
    quantity: 25,
    billingPeriod: 'yearly',
    billingCurrency: 'EUR',
  };
  const order = {
    edition: 'Enterprise',
    quantity: 25,
    billingPeriod: 'yearly',
    billingCurrency: 'EUR',
    companyName: 'Acme GmbH',
    billingEmail: 'ap@example.com',
    addressLine: 'Hauptstraße 1',
    postalCode: '10115',
    city: 'Berlin',
    country: 'DE',
    poReference: 'PO-1',
  };

  it.each(Object.entries(hostile))('single-line fields refuse %s', (_, text) => {
    expect(
      fieldErrors(contactMessageSchema, {
        name: text,
        emailAddress: 'j@example.com',
        message: 'm',
        role: text,
        company: text,
      }),
    ).toEqual({ name: invisible, role: invisible, company: invisible });
    for (const schema of [quoteRequestSchema, quoteFormSchema]) {
      expect(
        fieldErrors(schema, {
          ...quote,
          companyName: text,
          addressLine: text,
          postalCode: text,
          city: text,
          purchaseOrder: text,
        }),
      ).toEqual({
        companyName: invisible,
        addressLine: invisible,
        postalCode: invisible,
        city: invisible,
        purchaseOrder: invisible,
      });
    }
    for (const schema of [invoiceCheckoutRequestSchema, invoiceCheckoutFormSchema]) {
      expect(
        fieldErrors(schema, { ...order, companyName: text, city: text, poReference: text }),
      ).toEqual({ companyName: invisible, city: invisible, poReference: invisible });
    }
    expect(fieldErrors(quoteRequestSchema, { ...quote, vatId: `DE123456789${text}` })).toEqual({
      vatId: invisible,
    });
  });

  it('single-line fields say "single line" for a line break or a tab', () => {
    for (const text of ['Acme\nBcc: x@y.z', 'Acme\rX', 'Acme\tX', 'Acme\u2028X']) {
      expect(fieldErrors(invoiceCheckoutRequestSchema, { ...order, companyName: text })).toEqual({
        companyName: 'Please keep this on a single line.',
      });
    }
  });

  it('the message keeps its line breaks and tabs, emoji joiners and ZWNJ; refuses other controls and bidi controls', () => {
    const valid = { name: 'J', emailAddress: 'j@example.com' };
    for (const message of ['Hi\r\nthere\tall', 'Team 👩\u200d💻', 'می\u200cخواهم']) {
      expect(fieldErrors(contactMessageSchema, { ...valid, message })).toEqual({});
    }
    for (const message of [
      'Hi \u001b[2J',
      'Hi \u001b]8;;https://evil.example\u0007here\u001b]8;;\u0007',
      'Hi \u009b2J',
      'Hi \u202eexe.txt',
      'Hi \u200f',
      'Hi \u2067x',
    ]) {
      expect(fieldErrors(contactMessageSchema, { ...valid, message })).toEqual({
        message: invisible,
      });
    }
  });

  it('ordinary names, companies and addresses pass', () => {
    expect(
      fieldErrors(quoteRequestSchema, {
        ...quote,
        companyName: 'Müller & Söhne S.p.A. — Booking.com B.V.',
        addressLine: 'Rue de l’Église 3',
        city: 'Zürich',
      }),
    ).toEqual({});
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
