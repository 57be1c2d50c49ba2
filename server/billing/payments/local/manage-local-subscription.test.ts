import { describe, expect, it } from 'vitest';
import { vatOfPayment } from '#server/billing/documents/payment-document.ts';
import type { LocalInvoice } from './local-payment-repository.ts';
import { buyerOfChange } from './manage-local-subscription.ts';

function invoice(values: Partial<LocalInvoice> & { createdAt: Date }): LocalInvoice {
  return {
    id: `lin_${values.createdAt.getTime()}`,
    subscriptionId: 'lsub_1',
    status: 'paid',
    amount: 100,
    currency: 'USD',
    description: 'x',
    periodStart: values.createdAt,
    periodEnd: values.createdAt,
    paidAt: values.createdAt,
    companyName: null,
    billingEmail: null,
    billingAddress: null,
    vatId: null,
    vatIdConfirmation: null,
    country: null,
    ...values,
  } as LocalInvoice;
}

describe('the buyer of a plan change', () => {
  it('is the latest invoice that names a country, so its VAT is that buyer’s', () => {
    const older = invoice({
      createdAt: new Date('2026-01-01'),
      country: 'DE',
      companyName: 'Old GmbH',
    });
    const newer = invoice({
      createdAt: new Date('2026-03-01'),
      country: 'US',
      companyName: 'Acme Inc.',
      billingAddress: '1 Main St, Springfield',
    });
    const proration = invoice({ createdAt: new Date('2026-04-01') });
    const buyer = buyerOfChange([older, proration, newer]);
    expect(buyer).toEqual({
      companyName: 'Acme Inc.',
      billingAddress: '1 Main St, Springfield',
      country: 'US',
      vatId: null,
      vatIdConfirmation: null,
    });
    expect(vatOfPayment(buyer)).toMatchObject({ case: 'outside-eu', ratePercent: 0 });
  });

  it('is nobody in particular for a card subscription: German VAT', () => {
    const buyer = buyerOfChange([invoice({ createdAt: new Date('2026-01-01') })]);
    expect(buyer).toEqual({
      companyName: null,
      billingAddress: null,
      country: null,
      vatId: null,
      vatIdConfirmation: null,
    });
    expect(vatOfPayment(buyer)).toMatchObject({ case: 'domestic', ratePercent: 19 });
  });

  it('carries VIES’s confirmation of the order, so the change is reverse-charged as it was', () => {
    const vatIdConfirmation = {
      vatId: 'FR40303265045',
      by: 'vies' as const,
      consultationNumber: 'WAPIAAAAX1234567',
      confirmedOn: '2026-01-01',
      name: null,
      address: null,
    };
    const ordered = invoice({
      createdAt: new Date('2026-01-01'),
      country: 'FR',
      vatId: 'FR40303265045',
      vatIdConfirmation,
    });
    const buyer = buyerOfChange([ordered]);
    expect(buyer.vatIdConfirmation).toEqual(vatIdConfirmation);
    expect(vatOfPayment(buyer)).toMatchObject({ case: 'reverse-charge', ratePercent: 0 });
    expect(vatOfPayment({ ...buyer, vatIdConfirmation: null })).toMatchObject({ ratePercent: 19 });
  });
});
