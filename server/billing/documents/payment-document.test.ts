import { describe, expect, it } from 'vitest';
import {
  buildPaymentDocument,
  formatDocumentNumber,
  parseDocumentNumber,
  paymentDocumentSchema,
  vatOfPayment,
  type DocumentablePayment,
} from './payment-document.ts';
import { isPaymentDocumentToken, paymentDocumentToken } from './payment-document-link.ts';

const payment: DocumentablePayment = {
  invoiceId: 'lin_1',
  kind: 'invoice',
  issuedAt: new Date('2026-12-31T23:30:00Z'),
  paidAt: null,
  dueAt: new Date('2027-01-30T23:30:00Z'),
  currency: 'EUR',
  netMinor: 1_250,
  description: 'Orgsmith Enterprise, billed yearly',
  periodStart: new Date('2026-12-31T23:30:00Z'),
  periodEnd: new Date('2027-12-31T23:30:00Z'),
  buyer: {
    email: 'ap@example.fr',
    companyName: 'Exemple SA',
    address: '1 rue de Rivoli, 75001 Paris, FR',
    country: 'FR',
    vatId: 'FR40303265045',
    vatIdConfirmation: {
      vatId: 'FR40303265045',
      by: 'vies',
      consultationNumber: 'WAPIAAAAX1234567',
      confirmedOn: '2026-12-31',
      name: 'EXEMPLE SA',
      address: null,
    },
  },
  poReference: 'PO-1',
  quoteReference: null,
};

describe('payment documents', () => {
  it('numbers INV-YYYY-NNNNN and reads only that back', () => {
    expect(formatDocumentNumber(2026, 7)).toBe('INV-2026-00007');
    expect(formatDocumentNumber(2026, 123_456)).toBe('INV-2026-123456');
    expect(parseDocumentNumber('INV-2026-00007')).toEqual({
      series: 'INV',
      year: 2026,
      sequence: 7,
    });
    expect(parseDocumentNumber('CN-2026-00003')).toEqual({ series: 'CN', year: 2026, sequence: 3 });
    expect(formatDocumentNumber(2026, 3, 'CN')).toBe('CN-2026-00003');
    for (const bad of [
      'INV-2026-0007',
      'inv-2026-00007',
      'INV-2026-00007.pdf',
      'Q-2026-0001',
      '',
    ]) {
      expect(parseDocumentNumber(bad), bad).toBeNull();
    }
  });

  it('taxes by the shared rule; no country or a refused pair is German VAT', () => {
    expect(vatOfPayment(payment.buyer)).toMatchObject({ case: 'reverse-charge', ratePercent: 0 });
    // Without VIES's confirmation the same VAT ID is 19 % (decision 210).
    expect(vatOfPayment({ ...payment.buyer, vatIdConfirmation: null })).toMatchObject({
      case: 'eu-vat-id-unconfirmed',
      ratePercent: 19,
    });
    const nobody = {
      email: 'a@b.c',
      companyName: null,
      address: null,
      country: null,
      vatId: null,
      vatIdConfirmation: null,
    };
    expect(vatOfPayment(nobody)).toMatchObject({ case: 'domestic', ratePercent: 19 });
    expect(vatOfPayment({ ...nobody, country: 'US' })).toMatchObject({ case: 'outside-eu' });
    expect(vatOfPayment({ ...nobody, country: 'FR', vatId: 'NOT-A-VAT-ID' })).toMatchObject({
      case: 'domestic',
    });
  });

  it('freezes net, VAT and gross, dates in the seller’s time zone, the due date of an invoice', () => {
    const document = buildPaymentDocument({
      payment: { ...payment, buyer: { ...payment.buyer, country: 'DE', vatId: null } },
      number: 'INV-2027-00001',
      now: new Date('2026-12-31T23:30:00Z'),
      publicBaseUrl: 'https://orgsmith.io',
      bankAccounts: {},
    });
    expect(paymentDocumentSchema.parse(document)).toEqual(document);
    // 23:30 UTC on 31 December is already 1 January in Germany.
    expect(document.issuedOn).toBe('2027-01-01');
    expect(document.payment).toEqual({
      method: 'bank-transfer',
      dueOn: '2027-01-31',
      paidOn: null,
    });
    // 19 % of 12.50 is 2.375, rounded half away from zero.
    expect([document.netMinor, document.vatMinor, document.grossMinor]).toEqual([
      1_250, 238, 1_488,
    ]);
    expect(document.vat).toMatchObject({ case: 'domestic', ratePercent: 19, label: 'VAT 19 %' });
    expect(document.seller.vatId).toMatch(/^DE\d{9}$/);
    expect(document.buyer.addressLines).toEqual(['1 rue de Rivoli', '75001 Paris', 'FR']);
  });

  it('signs a document’s link with its number: no token opens another number', () => {
    const secret = 'secret-key-for-the-test-0123456789abcdef';
    const token = paymentDocumentToken(secret, 'INV-2026-00001');
    expect(isPaymentDocumentToken(secret, 'INV-2026-00001', token)).toBe(true);
    expect(isPaymentDocumentToken(secret, 'INV-2026-00002', token)).toBe(false);
    expect(
      isPaymentDocumentToken('another-secret-0123456789abcdefghijkl', 'INV-2026-00001', token),
    ).toBe(false);
    expect(isPaymentDocumentToken(secret, 'INV-2026-00001', `${token}x`)).toBe(false);
  });
});
