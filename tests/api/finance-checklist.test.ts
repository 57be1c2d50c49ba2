import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentDocumentUrl } from '#server/billing/documents/payment-document-link.ts';
import { paymentDocumentSchema } from '#server/billing/documents/payment-document.ts';
import { paymentDocuments } from '#server/platform/db/schema.ts';
import type { InvoiceCheckoutRequestInput } from '#shared/contracts/invoice-checkout.ts';
import { siteConfig } from '#shared/site-config.ts';
import { orderAndConfirm } from '#tests/security/support/invoice-orders.ts';
import { databaseTargets } from '../support/databases.ts';
import { runAdminOn } from '../support/licensing.ts';
import {
  expectFinanceChecklist,
  financeChecklist,
  pdfText,
  type DocumentFacts,
} from '../support/finance-checklist.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createCheckout, payLocally, pro10YearlyEur, successCard } from './checkout-support.ts';

/**
 * Issue 39's "Done when": invoices of a German, a French (reverse charge) and a US buyer who
 * order by invoice pass the finance reviewer's checklist (tests/support/finance-checklist.ts),
 * read from the PDF the buyer's link serves; so do their card receipts (decision 219) and the
 * credit note of a refund (decision 220), which the month's books subtract (decision 221).
 */

const { company } = siteConfig;
const seller = {
  name: company.name,
  addressLines: [company.street, `${company.postalCode} ${company.city}`, company.country],
  vatId: company.vatId,
};
/** Invoices print the seller's account for their currency (decision 218). */
const checkBankDetails = true;
const bankOf = (currency: 'EUR' | 'USD') => {
  const account = siteConfig.bankAccounts[currency];
  return { accountHolder: account.holder, iban: account.iban, bic: account.bic };
};

const order = (
  over: Partial<InvoiceCheckoutRequestInput> & Pick<InvoiceCheckoutRequestInput, 'billingEmail'>,
): InvoiceCheckoutRequestInput => ({
  edition: 'Pro',
  quantity: 10,
  billingPeriod: 'yearly',
  billingCurrency: 'EUR',
  companyName: 'Beispiel Handels GmbH',
  addressLine: 'Hauptstraße 1',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
  ...over,
});

/** Orders by invoice, confirms, and returns the invoice's stored document and its PDF's text. */
async function invoiceOf(t: TestApp, body: InvoiceCheckoutRequestInput) {
  const confirmed = await orderAndConfirm(t, body);
  const [row] = await t.deps.database.db
    .select()
    .from(paymentDocuments)
    .where(eq(paymentDocuments.subscriptionId, confirmed.subscriptionId));
  if (!row) throw new Error('the order has no invoice');
  const url = new URL(paymentDocumentUrl(t.deps.env.PUBLIC_BASE_URL, t.deps.secretKey, row.number));
  const res = await t.app.request(url.pathname + url.search);
  expect(res.status).toBe(200);
  return {
    document: paymentDocumentSchema.parse(row.document),
    text: await pdfText(new Uint8Array(await res.arrayBuffer())),
  };
}

/** A document's PDF as the buyer's link serves it, read back. */
async function pdfOf(t: TestApp, number: string): Promise<string> {
  const url = new URL(paymentDocumentUrl(t.deps.env.PUBLIC_BASE_URL, t.deps.secretKey, number));
  const res = await t.app.request(url.pathname + url.search);
  expect(res.status).toBe(200);
  return pdfText(new Uint8Array(await res.arrayBuffer()));
}

/** Buys Pro 10 yearly by card as `buyer`, and returns the receipt's stored document and text. */
async function receiptOf(
  t: TestApp,
  email: string,
  buyer: {
    companyName: string;
    addressLine: string;
    postalCode: string;
    city: string;
    state?: string;
    country: string;
    vatId?: string;
  },
  billingCurrency: 'EUR' | 'USD' = 'EUR',
) {
  const { sessionId } = await createCheckout(t, { ...pro10YearlyEur, billingCurrency, ...buyer });
  expect((await payLocally(t, sessionId, { email, card: successCard })).status).toBe(303);
  const [row] = await t.deps.database.db
    .select()
    .from(paymentDocuments)
    .where(eq(paymentDocuments.buyerEmail, email));
  if (!row) throw new Error(`no receipt for ${email}`);
  return { document: paymentDocumentSchema.parse(row.document), text: await pdfOf(t, row.number) };
}

describe.each(databaseTargets)('the finance reviewer’s checklist on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { now: new Date('2026-11-27T10:00:00Z') });
  });
  afterAll(() => t.close());

  const period = { from: '2026-11-27', to: '2027-11-27' };

  it('passes a German company’s invoice: German VAT 19 %', async () => {
    const { document, text } = await invoiceOf(
      t,
      order({ billingEmail: 'ap@beispiel-handel.test' }),
    );
    const facts: DocumentFacts = {
      kind: 'invoice',
      number: document.number,
      issuedOn: '2026-11-27',
      servicePeriod: period,
      seller,
      buyer: {
        name: 'Beispiel Handels GmbH',
        addressLines: ['Hauptstraße 1', '10115 Berlin', 'Germany'],
      },
      net: '€13,046.00',
      vat: '€2,478.74',
      gross: '€15,524.74',
      vatRatePercent: 19,
      taxNote: 'german-vat',
      bankDetails: bankOf('EUR'),
    };
    expectFinanceChecklist(text, facts, { checkBankDetails });
  });

  it('passes a French company’s invoice: reverse charge on the VAT ID VIES confirmed', async () => {
    const { document, text } = await invoiceOf(
      t,
      order({
        billingEmail: 'ap@exemple-sa.test',
        companyName: 'Exemple SA',
        addressLine: '1 rue de Rivoli',
        postalCode: '75001',
        city: 'Paris',
        country: 'FR',
        vatId: 'FR40303265045',
      }),
    );
    const consultation = t.vies?.consultations.get('FR40303265045');
    expect(consultation).toBeDefined();
    const facts: DocumentFacts = {
      kind: 'invoice',
      number: document.number,
      issuedOn: '2026-11-27',
      servicePeriod: period,
      seller,
      buyer: {
        name: 'Exemple SA',
        addressLines: ['1 rue de Rivoli', '75001 Paris', 'France'],
        vatId: 'FR40303265045',
      },
      net: '€13,046.00',
      vat: '€0.00',
      gross: '€13,046.00',
      vatRatePercent: 0,
      taxNote: 'reverse-charge',
      bankDetails: bankOf('EUR'),
      viesConsultationNumber: consultation,
    };
    expectFinanceChecklist(text, facts, { checkBankDetails });

    // The checklist fails what a reviewer would refuse: another VAT ID, German VAT, a lost note.
    const names = (failures: ReturnType<typeof financeChecklist>) =>
      [...new Set(failures.map((failure) => failure.check))].sort();
    expect(
      names(
        financeChecklist(text, { ...facts, buyer: { ...facts.buyer, vatId: 'FR83404833048' } }),
      ),
    ).toEqual(['buyer VAT ID', 'tax note']);
    expect(
      names(
        financeChecklist(text, {
          ...facts,
          taxNote: 'german-vat',
          vatRatePercent: 19,
          vat: '€2,478.74',
          gross: '€15,524.74',
        }),
      ),
    ).toEqual(['VAT', 'gross', 'tax note']);
    expect(
      names(financeChecklist(text.replace(/Reverse charge: no VAT/, 'No VAT'), facts)),
    ).toEqual(['tax note']);
    expect(names(financeChecklist(text.replace(/Service period/g, 'Period'), facts))).toEqual([
      'service period',
    ]);
    expect(names(financeChecklist(text.replaceAll(company.vatId, 'DE000000000'), facts))).toEqual([
      'seller VAT ID',
    ]);
    expect(names(financeChecklist(text, { ...facts, issuedOn: '2026-11-28' }))).toEqual([
      'issue date',
    ]);
    expect(names(financeChecklist(text, { ...facts, gross: '€13,046.01' }))).toEqual([
      'gross',
      'net + VAT = gross',
    ]);
  });

  it('passes a US company’s invoice in dollars: not taxable in Germany', async () => {
    const { document, text } = await invoiceOf(
      t,
      order({
        billingEmail: 'ap@example-inc.test',
        billingCurrency: 'USD',
        companyName: 'Example Inc.',
        addressLine: '500 Howard Street',
        postalCode: '94105',
        city: 'San Francisco',
        state: 'CA',
        country: 'US',
        vatId: undefined,
      }),
    );
    expectFinanceChecklist(
      text,
      {
        kind: 'invoice',
        number: document.number,
        issuedOn: '2026-11-27',
        servicePeriod: period,
        seller,
        buyer: {
          name: 'Example Inc.',
          addressLines: ['500 Howard Street', 'San Francisco, CA 94105', 'United States'],
        },
        net: '$14,094.00',
        vat: '$0.00',
        gross: '$14,094.00',
        vatRatePercent: 0,
        taxNote: 'not-taxable',
        bankDetails: bankOf('USD'),
      },
      { checkBankDetails },
    );
  });

  it('passes a German company’s invoice in dollars: its VAT also in EUR at the recorded ECB rate', async () => {
    const recorded = await runAdminOn(
      t,
      'fx-rates',
      'set',
      'USD',
      '2026-11-26',
      '1.0512',
      '--source',
      'ECB',
    );
    expect(recorded.code, recorded.err).toBe(0);
    const { document, text } = await invoiceOf(
      t,
      order({ billingEmail: 'ap-usd@beispiel-handel.test', billingCurrency: 'USD' }),
    );
    const facts: DocumentFacts = {
      kind: 'invoice',
      number: document.number,
      issuedOn: '2026-11-27',
      servicePeriod: period,
      seller,
      buyer: {
        name: 'Beispiel Handels GmbH',
        addressLines: ['Hauptstraße 1', '10115 Berlin', 'Germany'],
      },
      net: '$14,094.00',
      vat: '$2,677.86',
      gross: '$16,771.86',
      vatRatePercent: 19,
      taxNote: 'german-vat',
      bankDetails: bankOf('USD'),
      // 2,677.86 / 1.0512 = 2,547.430…
      vatInEur: { amount: '€2,547.43', perEur: '1.0512', currency: 'USD', rateOn: '2026-11-26' },
    };
    expectFinanceChecklist(text, facts, { checkBankDetails });
    // Without the EUR statement a reviewer refuses a dollar invoice with German VAT.
    expect(
      financeChecklist(text, { ...facts, vatInEur: undefined }).map((failure) => failure.check),
    ).toEqual(['VAT in EUR']);
  });

  it('passes the card receipts of a German, a French (reverse charge) and a US company', async () => {
    const german = await receiptOf(t, 'card@beispiel-handel.test', {
      companyName: 'Beispiel Handels GmbH',
      addressLine: 'Hauptstraße 1',
      postalCode: '10115',
      city: 'Berlin',
      country: 'DE',
    });
    expect(german.document.kind).toBe('receipt');
    expectFinanceChecklist(german.text, {
      kind: 'receipt',
      number: german.document.number,
      issuedOn: '2026-11-27',
      servicePeriod: period,
      seller,
      buyer: {
        name: 'Beispiel Handels GmbH',
        addressLines: ['Hauptstraße 1', '10115 Berlin', 'Germany'],
      },
      net: '€13,046.00',
      vat: '€2,478.74',
      gross: '€15,524.74',
      vatRatePercent: 19,
      taxNote: 'german-vat',
    });

    const french = await receiptOf(t, 'card@exemple-sa.test', {
      companyName: 'Exemple SA',
      addressLine: '1 rue de Rivoli',
      postalCode: '75001',
      city: 'Paris',
      country: 'FR',
      vatId: 'FR40303265045',
    });
    expectFinanceChecklist(french.text, {
      kind: 'receipt',
      number: french.document.number,
      issuedOn: '2026-11-27',
      servicePeriod: period,
      seller,
      buyer: {
        name: 'Exemple SA',
        addressLines: ['1 rue de Rivoli', '75001 Paris', 'France'],
        vatId: 'FR40303265045',
      },
      net: '€13,046.00',
      vat: '€0.00',
      gross: '€13,046.00',
      vatRatePercent: 0,
      taxNote: 'reverse-charge',
      viesConsultationNumber: t.vies?.consultations.get('FR40303265045'),
    });

    const american = await receiptOf(
      t,
      'card@example-inc.test',
      {
        companyName: 'Example Inc.',
        addressLine: '500 Howard Street',
        postalCode: '94105',
        city: 'San Francisco',
        state: 'CA',
        country: 'US',
      },
      'USD',
    );
    expectFinanceChecklist(american.text, {
      kind: 'receipt',
      number: american.document.number,
      issuedOn: '2026-11-27',
      servicePeriod: period,
      seller,
      buyer: {
        name: 'Example Inc.',
        addressLines: ['500 Howard Street', 'San Francisco, CA 94105', 'United States'],
      },
      net: '$14,094.00',
      vat: '$0.00',
      gross: '$14,094.00',
      vatRatePercent: 0,
      taxNote: 'not-taxable',
    });
  });

  it('passes the credit note of a refund, naming the receipt it corrects and the VAT it reverses', async () => {
    const { document } = await receiptOf(t, 'refund@beispiel-handel.test', {
      companyName: 'Beispiel Handels GmbH',
      addressLine: 'Hauptstraße 1',
      postalCode: '10115',
      city: 'Berlin',
      country: 'DE',
    });
    const refunded = await runAdminOn(
      t,
      'payments',
      'refund',
      document.number,
      '--amount',
      '119.00',
      '--reason',
      'Goodwill for an outage',
    );
    expect(refunded.code, refunded.err).toBe(0);
    const [note] = await t.deps.database.db
      .select()
      .from(paymentDocuments)
      .where(eq(paymentDocuments.creditsNumber, document.number));
    if (!note) throw new Error('the refund made no credit note');
    expect(note.number).toMatch(/^CN-2026-\d{5}$/);
    expectFinanceChecklist(await pdfOf(t, note.number), {
      kind: 'credit-note',
      number: note.number,
      issuedOn: '2026-11-27',
      servicePeriod: period,
      seller,
      buyer: {
        name: 'Beispiel Handels GmbH',
        addressLines: ['Hauptstraße 1', '10115 Berlin', 'Germany'],
      },
      net: '€100.00',
      vat: '€19.00',
      gross: '€119.00',
      vatRatePercent: 19,
      taxNote: 'german-vat',
      credits: document.number,
    });

    // The month's books list the receipt and its credit note, which subtracts.
    const books = await runAdminOn(
      t,
      'documents',
      'export',
      '--from',
      '2026-11-01',
      '--to',
      '2026-11-30',
      '--csv',
    );
    expect(books.code, books.err).toBe(0);
    const rows = books.out.split('\n');
    const creditRow = rows.find((row) => row.startsWith(note.number)) ?? '';
    expect(creditRow).toContain('credit note');
    expect(creditRow).toContain('-119.00');
    expect(rows.some((row) => row.startsWith(document.number))).toBe(true);
  });

  it('fails an invoice whose account is missing or another one', async () => {
    const { document, text } = await invoiceOf(
      t,
      order({ billingEmail: 'ap2@beispiel-handel.test' }),
    );
    const facts: DocumentFacts = {
      kind: 'invoice',
      number: document.number,
      issuedOn: '2026-11-27',
      servicePeriod: period,
      seller,
      buyer: {
        name: 'Beispiel Handels GmbH',
        addressLines: ['Hauptstraße 1', '10115 Berlin', 'Germany'],
      },
      net: '€13,046.00',
      vat: '€2,478.74',
      gross: '€15,524.74',
      vatRatePercent: 19,
      taxNote: 'german-vat',
      bankDetails: bankOf('EUR'),
    };
    expectFinanceChecklist(text, facts, { checkBankDetails });
    const checks = (failures: ReturnType<typeof financeChecklist>) =>
      new Set(failures.map((failure) => failure.check));
    // The same page without its account lines, as invoices were before decision 218.
    const withoutAccount = text
      .split('\n')
      .filter((line) => !/IBAN|BIC|Account holder/.test(line))
      .join('\n');
    expect(checks(financeChecklist(withoutAccount, facts, { checkBankDetails }))).toEqual(
      new Set(['bank details']),
    );
    // Another account than the one for the invoice's currency.
    expect(
      checks(
        financeChecklist(text, { ...facts, bankDetails: bankOf('USD') }, { checkBankDetails }),
      ),
    ).toEqual(new Set(['bank details']));
  });
});
