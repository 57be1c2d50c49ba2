import { describe, expect, it } from 'vitest';
import { checkoutFormSchemas, checkoutMessages, checkoutRequestSchema } from './checkout.ts';
import { invoiceCheckoutRequestSchema } from './invoice-checkout.ts';
import { licenceHolderMessages } from './licence-holder.ts';

const valid = {
  edition: 'Pro',
  quantity: 10,
  billingPeriod: 'yearly',
  billingCurrency: 'EUR',
  successUrl: 'http://localhost:3000/checkout-success?session_id={CHECKOUT_SESSION_ID}',
  cancelUrl: 'http://localhost:3000/pricing?size=10&period=yearly&currency=EUR',
  companyName: 'Muster GmbH',
  addressLine: 'Hauptstraße 1',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
};

const issuesOf = (value: unknown) => {
  const result = checkoutRequestSchema.safeParse(value);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('the licence holder (decision 223)', () => {
  it('is trimmed, empty is none, and must be an e-mail address of at most 254 characters', () => {
    const holderOf = (licenceHolderEmail: unknown) =>
      checkoutRequestSchema.parse({ ...valid, licenceHolderEmail }).licenceHolderEmail;
    expect(holderOf('  dev@acme.test ')).toBe('dev@acme.test');
    expect(holderOf('  ')).toBeUndefined();
    expect(holderOf(null)).toBeUndefined();
    for (const bad of ['dev', 'dev@', '@acme.test', `${'d'.repeat(250)}@a.test`, 7]) {
      expect(issuesOf({ ...valid, licenceHolderEmail: bad }), String(bad)).toEqual([
        `licenceHolderEmail: ${licenceHolderMessages.invalid}`,
      ]);
    }
  });

  it('is refused on a free Starter checkout, not when left empty', () => {
    const starter = { ...valid, edition: 'Starter', quantity: 3 };
    expect(issuesOf({ ...starter, licenceHolderEmail: 'dev@acme.test' })).toEqual([
      `licenceHolderEmail: ${licenceHolderMessages.notForStarter}`,
    ]);
    expect(issuesOf({ ...starter, licenceHolderEmail: '' })).toEqual([]);
  });

  it('is the same field on the order by invoice and in the paid dialog', () => {
    const order = {
      edition: 'Pro',
      quantity: 10,
      billingPeriod: 'yearly',
      billingCurrency: 'EUR',
      companyName: 'Muster GmbH',
      billingEmail: 'ap@muster.test',
      addressLine: 'Hauptstraße 1',
      postalCode: '10115',
      city: 'Berlin',
      country: 'DE',
    };
    expect(
      invoiceCheckoutRequestSchema.parse({ ...order, licenceHolderEmail: ' dev@muster.test' })
        .licenceHolderEmail,
    ).toBe('dev@muster.test');
    expect(
      invoiceCheckoutRequestSchema.safeParse({ ...order, licenceHolderEmail: 'dev@' }).success,
    ).toBe(false);
    const form = { companyName: 'Muster GmbH', addressLine: 'A 1', postalCode: '1', city: 'B' };
    expect(
      checkoutFormSchemas.paid.safeParse({ ...form, country: 'DE', licenceHolderEmail: 'x@' })
        .success,
    ).toBe(false);
  });
});

describe('checkoutRequestSchema', () => {
  it('accepts the spec fields and drops an empty trial key', () => {
    expect(checkoutRequestSchema.parse({ ...valid, trialLicenseKeyToConvert: '  ' })).toEqual(
      valid,
    );
    expect(checkoutRequestSchema.parse({ ...valid, trialLicenseKeyToConvert: null })).toEqual(
      valid,
    );
    expect(
      checkoutRequestSchema.parse({ ...valid, trialLicenseKeyToConvert: ' ORGS-ABCD ' })
        .trialLicenseKeyToConvert,
    ).toBe('ORGS-ABCD');
  });

  it('requires the quantity to fit the edition', () => {
    for (const [edition, quantity] of [
      ['Starter', 3],
      ['Pro', 4],
      ['Pro', 24],
      ['Enterprise', 25],
    ] as const) {
      expect(issuesOf({ ...valid, edition, quantity })).toEqual([]);
    }
    for (const [edition, quantity] of [
      ['Starter', 4],
      ['Pro', 3],
      ['Pro', 25],
      ['Enterprise', 24],
    ] as const) {
      expect(issuesOf({ ...valid, edition, quantity })).toEqual([
        `quantity: ${checkoutMessages.quantityInvalid}`,
      ]);
    }
    expect(issuesOf({ ...valid, quantity: 10.5 })).not.toEqual([]);
    expect(issuesOf({ ...valid, quantity: '10' })).not.toEqual([]);
  });

  it('asks a company of every buyer and an address for a paid plan, unless a quote names them (decision 219)', () => {
    const nameless = Object.fromEntries(
      Object.entries(valid).filter(([key]) => key !== 'companyName'),
    );
    expect(issuesOf(nameless)).toEqual([`companyName: ${checkoutMessages.companyNameRequired}`]);
    expect(issuesOf({ ...valid, addressLine: undefined, city: ' ' })).toEqual([
      'addressLine: You must enter the street and number.',
      'city: You must enter the city.',
    ]);
    expect(
      issuesOf({ ...nameless, edition: 'Starter', quantity: 3, companyName: 'Tiny Ltd' }),
    ).toEqual([]);
    const quoted = { ...valid, quoteToken: 'A'.repeat(32) };
    expect(
      issuesOf({
        edition: 'Pro',
        quantity: 10,
        billingPeriod: 'yearly',
        billingCurrency: 'EUR',
        successUrl: quoted.successUrl,
        cancelUrl: quoted.cancelUrl,
        quoteToken: quoted.quoteToken,
      }),
    ).toEqual([]);
    expect(issuesOf({ ...valid, country: 'US' })).toEqual([
      'state: Choose the state from the list.',
    ]);
    expect(issuesOf({ ...valid, country: 'US', state: 'ca' })).toEqual([]);
  });

  it('refuses unknown fields, missing fields, wrong enums and non-http URLs', () => {
    expect(issuesOf({ ...valid, coupon: 'FREE' })).not.toEqual([]);
    const missing = Object.fromEntries(Object.entries(valid).filter(([key]) => key !== 'edition'));
    expect(issuesOf(missing)).not.toEqual([]);
    expect(issuesOf({ ...valid, billingCurrency: 'GBP' })).not.toEqual([]);
    expect(issuesOf({ ...valid, billingPeriod: 'weekly' })).not.toEqual([]);
    expect(issuesOf({ ...valid, successUrl: 'javascript:alert(1)' })).not.toEqual([]);
    expect(issuesOf({ ...valid, cancelUrl: '/pricing' })).not.toEqual([]);
    expect(issuesOf({ ...valid, trialLicenseKeyToConvert: 42 })).not.toEqual([]);
    expect(issuesOf({ ...valid, trialLicenseKeyToConvert: 'K'.repeat(101) })).not.toEqual([]);
  });
});
