import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readInvoiceOrderLink } from '#server/billing/invoices/read-invoice-order-link.ts';
import { syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import { invoiceOrders, paymentDocuments } from '#server/platform/db/schema.ts';
import type { InvoiceCheckoutRequestInput } from '#shared/contracts/invoice-checkout.ts';
import {
  confirmationToken,
  confirmOrder,
  placeOrder,
} from '#tests/security/support/invoice-orders.ts';
import { outboxRows } from './account-support.ts';
import { browser, mailsTo } from './checkout-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { runAdminOn } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

/**
 * Invoices that can be paid as sent (decision 218): the seller's account and the one payment
 * reference on every invoice, one number (ours) on the PDF, the pages, the e-mails and the
 * commands, the quote's lines kept, the amounts on the order's page and e-mail, and no pay by
 * invoice in a currency without an account.
 */

const run = promisify(execFile);

async function pdfText(bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'invoice-payable-'));
  try {
    const file = join(dir, 'invoice.pdf');
    await writeFile(file, bytes);
    return (await run('pdftotext', ['-layout', file, '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const confirmedSchema = z.object({
  subscriptionId: z.string(),
  invoiceNumber: z.string(),
  invoiceUrl: z.string(),
  amountDue: z.number(),
  amountNet: z.number(),
  amountVat: z.number(),
  invoiceEmailedTo: z.string().nullable(),
});

/** Pro 10 yearly in EUR for a German company: €13,046.00 net, in two lines (base and 6 orgs). */
const pro10 = (billingEmail: string): InvoiceCheckoutRequestInput => ({
  edition: 'Pro',
  quantity: 10,
  billingPeriod: 'yearly',
  billingCurrency: 'EUR',
  companyName: 'Payable GmbH',
  billingEmail,
  addressLine: 'Hauptstraße 1',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
  poReference: 'PO-77',
});

/** Every invoice-like number a text names (ours, or the test provider's old kind). */
const numbersIn = (text: string) => [...new Set(text.match(/\b(?:INV|LOCAL)-[0-9A-Z-]+\d\b/g))];

describe.each(databaseTargets)('invoices that can be paid as sent on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { now: new Date('2026-04-01T09:00:00Z') });
  });
  afterAll(() => t.close());

  it('shows the order’s amount, gross with net and VAT, on its page and in its e-mail', async () => {
    const email = 'ap@amount-payable.test';
    expect((await placeOrder(t, pro10(email))).status).toBe(201);
    const [mail] = (await mailsTo(t, email)).filter(
      (row) => row.kind === 'invoice-order-confirmation',
    );
    // €13,046.00 net, 19 % German VAT €2,478.74, €15,524.74 in all.
    for (const expected of [
      'Total (gross)',
      '€15,524.74',
      'Net',
      '€13,046.00',
      'VAT 19 %',
      '€2,478.74',
    ]) {
      expect(mail?.textBody, expected).toContain(expected);
    }
    const status = await readInvoiceOrderLink(
      syncDepsOf(t.deps),
      await confirmationToken(t, email),
    );
    expect(status).toMatchObject({
      state: 'ready',
      amount: {
        currency: 'EUR',
        netMinor: 1_304_600,
        vatMinor: 247_874,
        grossMinor: 1_552_474,
        vatLabel: 'VAT 19 %',
      },
    });
  });

  it('gives the invoice one number everywhere and the seller’s account with it as the reference', async () => {
    const email = 'ap@one-number.test';
    expect((await placeOrder(t, pro10(email))).status).toBe(201);
    const confirmed = await confirmOrder(t, await confirmationToken(t, email));
    expect(confirmed.status).toBe(200);
    const order = confirmedSchema.parse(await confirmed.json());
    const number = order.invoiceNumber;
    expect(number).toMatch(/^INV-2026-\d{5}$/);
    expect([order.amountNet, order.amountVat, order.amountDue]).toEqual([
      1_304_600, 247_874, 1_552_474,
    ]);
    // The key's e-mail links the invoice: the page may say it was e-mailed, and to whom.
    expect(order.invoiceEmailedTo).toBe(email);

    // The documents table holds it under the same number, with the account frozen into it.
    const [row] = (await t.deps.database.db.select().from(paymentDocuments)).filter(
      (document) => document.buyerEmail === email,
    );
    expect(row?.number).toBe(number);

    // The licence e-mail: the same number as the open invoice and as the PDF link, no other.
    const keyMail = (await mailsTo(t, email)).find((mail) => mail.kind === 'licence-key');
    const keyText = keyMail?.textBody ?? '';
    expect(keyText).toContain(`Invoice: ${number}, unpaid, due `);
    expect(keyText).toContain(`Download invoice ${number} (PDF)`);
    expect(numbersIn(keyText)).toEqual([number]);

    // The PDF: the account, the one reference, the quote's two lines.
    const link = /http:\/\/localhost:3000(\/documents\/INV-[\d-]+\.pdf\?token=[\w-]+)/.exec(
      keyText,
    );
    const pdf = await t.app.request(link?.[1] ?? '/missing');
    expect(pdf.status).toBe(200);
    const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
    for (const expected of [
      'by bank transfer by 2026-05-01',
      `Payment reference: ${number}`,
      'Account holder: Orgsmith GmbH',
      'IBAN: DE89 3704 0044 0532 0130 00',
      'BIC: COBADEFFXXX',
      'Bank: Commerzbank',
      'Orgsmith Pro licence',
      'Additional Salesforce orgs',
      '€15,524.74',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain('Bank details:');
    expect(numbersIn(text)).toEqual([number]);

    // The test provider's hosted page: our number, the account, no number of its own.
    const page = await browser(t, new URL(order.invoiceUrl).pathname);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`Invoice ${number}`);
    expect(html).toContain('DE89 3704 0044 0532 0130 00');
    expect(numbersIn(html)).toEqual([number]);

    // The commands: the order, the list of invoices sent and mark-paid all go by that number.
    const orders = await runAdminOn(t, 'invoice-orders', 'list');
    expect(orders.out).toContain(number);
    expect(orders.out).not.toMatch(/LOCAL-/);
    expect((await runAdminOn(t, 'invoices', 'list')).out).toContain(number);
    const paid = await runAdminOn(t, 'invoices', 'mark-paid', number);
    expect(paid.code).toBe(0);
    expect(paid.out).toContain(`Invoice ${number} is paid.`);
  });
});

describe.each(databaseTargets)('no bank account, no pay by invoice, on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { env: { BANK_ACCOUNT_USD: 'none' } });
  });
  afterAll(() => t.close());

  it('refuses an order in that currency with 400 and stores and sends nothing', async () => {
    const before = (await outboxRows(t)).length;
    const refused = await placeOrder(t, {
      ...pro10('ap@no-usd-account.test'),
      billingCurrency: 'USD',
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      Error: 'InvalidRequest',
      issues: [
        {
          field: 'billingCurrency',
          message:
            'Pay by invoice is not offered in USD: pay by card, or write to hello@orgsmith.io.',
        },
      ],
    });
    expect(await t.deps.database.db.select().from(invoiceOrders)).toEqual([]);
    expect((await outboxRows(t)).length).toBe(before);
    // EUR has its account: offered.
    expect((await placeOrder(t, pro10('ap@eur-account.test'))).status).toBe(201);
  });

  it('refuses to confirm an order whose currency lost its account, and the link stays usable', async () => {
    const email = 'ap@withdrawn.test';
    expect((await placeOrder(t, pro10(email))).status).toBe(201);
    const token = await confirmationToken(t, email);
    const accounts = t.deps.env.bankAccounts;
    const eur = accounts.EUR;
    // The deployment withdrew its EUR account (a restart with BANK_ACCOUNT_EUR=none).
    delete accounts.EUR;
    try {
      const refused = await confirmOrder(t, token);
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({ Error: 'InvoiceCurrencyNotOffered' });
      expect(await t.deps.database.db.select().from(paymentDocuments)).toEqual([]);
    } finally {
      accounts.EUR = eur;
    }
    expect((await confirmOrder(t, token)).status).toBe(200);
  });
});
