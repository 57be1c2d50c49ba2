import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issuePaymentDocuments } from '#server/billing/documents/issue-payment-documents.ts';
import type { DocumentablePayment } from '#server/billing/documents/payment-document.ts';
import { paymentDocumentToken } from '#server/billing/documents/payment-document-link.ts';
import { runLocalBilling } from '#server/billing/payments/local/local-billing-worker.ts';
import {
  handlePaymentEvent,
  syncDepsOf,
  syncSubscription,
} from '#server/billing/subscriptions/sync-subscription.ts';
import {
  licences,
  localInvoices,
  paymentDocumentSeriesCounters,
  paymentDocuments,
  paymentEvents,
} from '#server/platform/db/schema.ts';
import { confirmationToken, confirmOrder } from '#tests/security/support/invoice-orders.ts';
import { databaseTargets } from '../support/databases.ts';
import { runAdminOn } from '../support/licensing.ts';
import { createTestApp, csrfHeaders, type TestApp } from '../support/test-app.ts';
import {
  createCheckout,
  freshIp,
  issueTrial,
  licencesOf,
  mailsTo,
  payLocally,
  pro10YearlyEur,
  successCard,
} from './checkout-support.ts';

const run = promisify(execFile);

/** The text of a PDF as poppler's pdftotext reads it. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'payment-document-'));
  try {
    const file = join(dir, 'document.pdf');
    await writeFile(file, bytes);
    return (await run('pdftotext', ['-layout', file, '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const DOCUMENT_LINK = /http:\/\/localhost:3000\/documents\/INV-\d{4}-\d{5}\.pdf\?token=[\w-]{43}/;

function documentsOf(t: TestApp) {
  return t.deps.database.db.select().from(paymentDocuments).orderBy(asc(paymentDocuments.number));
}

/** A subscription's documents, oldest first. */
function documentsOfSubscription(t: TestApp, subscriptionId: string) {
  return t.deps.database.db
    .select()
    .from(paymentDocuments)
    .where(eq(paymentDocuments.subscriptionId, subscriptionId))
    .orderBy(asc(paymentDocuments.createdAt));
}

async function counterOf(t: TestApp, year: number): Promise<number | undefined> {
  const [row] = await t.deps.database.db
    .select()
    .from(paymentDocumentSeriesCounters)
    .where(
      and(
        eq(paymentDocumentSeriesCounters.series, 'INV'),
        eq(paymentDocumentSeriesCounters.year, year),
      ),
    );
  return row?.lastNumber;
}

/** Buys Pro 10 yearly (EUR) by card at the local provider; returns the licence e-mail's link. */
async function buyByCard(t: TestApp, email: string) {
  const { sessionId } = await createCheckout(t, pro10YearlyEur);
  expect((await payLocally(t, sessionId, { email, card: successCard })).status).toBe(303);
  const [mail] = await mailsTo(t, email);
  const link = mail?.textBody?.match(DOCUMENT_LINK)?.[0];
  const [licence] = await licencesOf(t, email.toLowerCase());
  return { mail, link, subscriptionId: licence?.subscriptionId ?? '' };
}

describe.each(databaseTargets)('invoices and receipts of payments on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target, { now: new Date('2026-01-15T10:00:00Z') });
  });
  afterAll(() => t.close());

  it('gives a card payment a numbered receipt, linked from the licence e-mail, that reads back', async () => {
    const { mail, link, subscriptionId } = await buyByCard(t, 'first@receipt.test');
    expect(mail?.kind).toBe('licence-key');
    expect(link).toBeDefined();
    expect(link).toContain('/documents/INV-2026-00001.pdf?token=');
    expect(mail?.textBody).toContain('Download receipt INV-2026-00001 (PDF)');

    const [stored, ...others] = await documentsOf(t);
    expect(others).toEqual([]);
    // Pro 10 yearly in EUR is €13,046 net; no country given → German VAT 19 % (decision 180).
    expect(stored).toMatchObject({
      number: 'INV-2026-00001',
      year: 2026,
      sequence: 1,
      kind: 'receipt',
      provider: 'local',
      subscriptionId,
      buyerEmail: 'first@receipt.test',
      issuedOn: '2026-01-15',
      currency: 'EUR',
      netMinor: 1_304_600,
      vatRatePercent: 19,
      vatMinor: 247_874,
      grossMinor: 1_552_474,
    });

    const res = await t.app.request(new URL(link ?? '').pathname + new URL(link ?? '').search);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="INV-2026-00001.pdf"');
    const text = await pdfText(new Uint8Array(await res.arrayBuffer()));
    for (const expected of [
      'Receipt',
      'INV-2026-00001',
      '2026-01-15',
      // The quote's two lines: the base price with 4 orgs, then the 6 further orgs (decision 218).
      'Orgsmith Pro licence',
      'Additional Salesforce orgs',
      'first@receipt.test',
      'VAT ID DE',
      '€13,046.00',
      'VAT 19 %',
      '€2,478.74',
      '€15,524.74',
      'Paid in full by card on 2026-01-15',
    ]) {
      expect(text, expected).toContain(expected);
    }
    // The company the checkout named, its address, and the buyer's address once (decision 219).
    const billedTo = text.slice(text.indexOf('BILLED TO'), text.indexOf('Description'));
    expect(billedTo.trim().split(/\n\s*/)).toEqual([
      'BILLED TO',
      'Muster Software GmbH',
      'Hauptstraße 1',
      '10115 Berlin',
      'Germany',
      'first@receipt.test',
    ]);
  });

  it('links the receipt from the e-mail of a trial converted by the purchase', async () => {
    const trial = await issueTrial(t, 'trial@receipt.test');
    const { sessionId } = await createCheckout(t, {
      ...pro10YearlyEur,
      trialLicenseKeyToConvert: trial.key,
    });
    const paid = await payLocally(t, sessionId, { email: 'trial@receipt.test', card: successCard });
    expect(paid.status).toBe(303);
    const mails = await mailsTo(t, 'trial@receipt.test');
    expect(mails.map((mail) => mail.kind)).toEqual(['trial-converted']);
    expect(mails[0]?.textBody).toMatch(/Download receipt INV-2026-\d{5} \(PDF\)/);
    const link = new URL(mails[0]?.textBody?.match(DOCUMENT_LINK)?.[0] ?? '');
    expect((await t.app.request(link.pathname + link.search)).status).toBe(200);
  });

  it('answers 404 to a guessed number, another document’s token and a missing or bent token', async () => {
    const second = await buyByCard(t, 'second@receipt.test');
    const own = new URL(second.link ?? '');
    const number = /INV-2026-\d{5}/.exec(own.pathname)?.[0] ?? '';
    const sequence = Number(number.slice(-5));
    const next = `INV-2026-${String(sequence + 1).padStart(5, '0')}`;
    const token = own.searchParams.get('token') ?? '';
    const bent = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const firstToken = paymentDocumentToken(t.deps.secretKey, 'INV-2026-00001');
    for (const path of [
      `/documents/${number}.pdf`,
      `/documents/${number}.pdf?token=`,
      `/documents/${number}.pdf?token=${firstToken}`,
      `/documents/INV-2026-00001.pdf?token=${token}`,
      `/documents/${next}.pdf?token=${token}`,
      `/documents/${number}.pdf?token=${bent}`,
      `/documents/${number}.pdf?token=${'A'.repeat(43)}`,
      `/documents/${number.replace('-0', '-')}.pdf?token=${token}`,
      // A token that is right for a number nobody was given yet.
      `/documents/${next}.pdf?token=${paymentDocumentToken(t.deps.secretKey, next)}`,
    ]) {
      const res = await t.app.request(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type') ?? '', path).not.toContain('pdf');
    }
    expect((await t.app.request(own.pathname + own.search)).status).toBe(200);
  });

  it('makes no second document and takes no number when a payment event is replayed', async () => {
    const { subscriptionId } = await buyByCard(t, 'replay@receipt.test');
    const before = await documentsOf(t);
    const counter = await counterOf(t, 2026);
    const sync = syncDepsOf(t.deps);
    const events = await t.deps.database.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.subscriptionId, subscriptionId));
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      // The same event again (a webhook retry), and the same news under a new id.
      expect(
        (await handlePaymentEvent(sync, { id: event.eventId, type: event.type, subscriptionId }))
          .outcome,
      ).toBe('duplicate');
      await handlePaymentEvent(sync, {
        id: `${event.eventId}-again`,
        type: event.type,
        subscriptionId,
      });
    }
    await Promise.all([1, 2, 3].map(() => syncSubscription(sync, subscriptionId)));
    expect(await documentsOf(t)).toEqual(before);
    expect(await counterOf(t, 2026)).toBe(counter);
    expect((await mailsTo(t, 'replay@receipt.test')).map((mail) => mail.kind)).toEqual([
      'licence-key',
    ]);
  });

  it('leaves no gap when the transaction that took a number fails', async () => {
    const counter = (await counterOf(t, 2026)) ?? 0;
    const payment: DocumentablePayment = {
      invoiceId: 'lin_rolled_back',
      kind: 'receipt',
      issuedAt: t.deps.clock(),
      paidAt: t.deps.clock(),
      dueAt: null,
      currency: 'USD',
      netMinor: 49_500,
      description: 'Orgsmith Pro, 4 orgs, billed monthly',
      periodStart: t.deps.clock(),
      periodEnd: new Date('2026-02-15T10:00:00Z'),
      buyer: {
        email: 'x@example.com',
        companyName: null,
        address: null,
        country: 'US',
        vatId: null,
        vatIdConfirmation: null,
      },
      poReference: null,
      quoteReference: null,
    };
    await expect(
      t.deps.database.db.transaction(async (tx) => {
        const [issued] = await issuePaymentDocuments(tx, {
          provider: 'local',
          subscriptionId: 'lsub_rolled_back',
          payments: [payment],
          now: t.deps.clock(),
          publicBaseUrl: t.deps.env.PUBLIC_BASE_URL,
          bankAccounts: t.deps.env.bankAccounts,
        });
        expect(issued?.number).toBe(`INV-2026-${String(counter + 1).padStart(5, '0')}`);
        throw new Error('the payment failed after the number was taken');
      }),
    ).rejects.toThrow(/payment failed/);
    expect(await counterOf(t, 2026)).toBe(counter);
    const rows = await t.deps.database.db
      .select()
      .from(paymentDocuments)
      .where(eq(paymentDocuments.providerInvoiceId, 'lin_rolled_back'));
    expect(rows).toEqual([]);
    // The next payment gets the number the failed one gave back.
    const next = await buyByCard(t, 'after-rollback@receipt.test');
    expect(next.link).toContain(`INV-2026-${String(counter + 1).padStart(5, '0')}.pdf`);
    const sequences = (await documentsOf(t)).map((row) => row.sequence);
    expect(sequences).toEqual(sequences.map((_, index) => index + 1));
  });

  it('numbers payments made at the same time one after another, each once', async () => {
    const counter = (await counterOf(t, 2026)) ?? 0;
    const bought = await Promise.all(
      [1, 2, 3, 4].map((n) => buyByCard(t, `parallel-${n}@receipt.test`)),
    );
    const numbers = bought.map((one) => /INV-2026-(\d{5})/.exec(one.link ?? '')?.[1]);
    expect(numbers.map(Number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4].map((n) => counter + n));
    expect(await counterOf(t, 2026)).toBe(counter + 4);
  });

  it('sends a renewal its own receipt, and numbers start again at 1 in a new year', async () => {
    const { subscriptionId } = await buyByCard(t, 'renewal@receipt.test');
    t.setNow(new Date('2027-01-15T10:00:01Z'));
    await runLocalBilling(t.deps);
    const renewal = await documentsOfSubscription(t, subscriptionId);
    const renewed = renewal[1]?.number ?? '';
    expect(renewal.map((row) => row.number)).toEqual([
      expect.stringMatching(/^INV-2026-\d{5}$/),
      expect.stringMatching(/^INV-2027-\d{5}$/),
    ]);
    // Every subscription bought so far renewed: 2027 counts from 1, without a gap.
    const year2027 = (await documentsOf(t)).filter((row) => row.year === 2027);
    expect(year2027.map((row) => row.sequence).sort((a, b) => a - b)).toEqual(
      year2027.map((_, index) => index + 1),
    );
    const invoices = await t.deps.database.db
      .select()
      .from(localInvoices)
      .where(eq(localInvoices.subscriptionId, subscriptionId));
    expect(invoices.filter((invoice) => invoice.status === 'paid')).toHaveLength(2);
    const mails = await mailsTo(t, 'renewal@receipt.test');
    const receipt = mails.find((mail) => mail.kind === 'payment-receipt');
    expect(receipt?.subject).toBe(`Your Orgsmith receipt ${renewed}`);
    expect(receipt?.textBody).toMatch(DOCUMENT_LINK);
    expect(receipt?.textBody).toContain('€15,524.74');
    t.setNow(new Date('2026-01-15T10:00:00Z'));
  });

  it('e-mails the receipt of a payment whose licence is gone', async () => {
    const { subscriptionId } = await buyByCard(t, 'orphan@receipt.test');
    const [licence] = await licencesOf(t, 'orphan@receipt.test');
    await t.deps.database.db.delete(licences).where(eq(licences.id, licence?.id ?? ''));
    t.setNow(new Date('2027-01-15T10:00:02Z'));
    try {
      await runLocalBilling(t.deps);
      const rows = await documentsOfSubscription(t, subscriptionId);
      expect(rows).toHaveLength(2);
      const receipt = (await mailsTo(t, 'orphan@receipt.test')).find(
        (mail) => mail.kind === 'payment-receipt',
      );
      expect(receipt?.subject).toBe(`Your Orgsmith receipt ${rows[1]?.number}`);
      expect(receipt?.textBody).toMatch(DOCUMENT_LINK);
    } finally {
      t.setNow(new Date('2026-01-15T10:00:00Z'));
    }
  });

  it('gives an invoice order its invoice with the due date, taxed for the buyer’s country', async () => {
    const billingEmail = 'ap@exemple-documents.test';
    const placed = await t.app.request('/account/v1/checkout/invoice', {
      method: 'POST',
      headers: {
        ...csrfHeaders(),
        'Content-Type': 'application/json',
        'X-Forwarded-For': freshIp(),
      },
      body: JSON.stringify({
        edition: 'Enterprise',
        quantity: 25,
        billingPeriod: 'yearly',
        billingCurrency: 'EUR',
        companyName: 'Exemple SA',
        billingEmail,
        addressLine: '1 rue de Rivoli',
        postalCode: '75001',
        city: 'Paris',
        country: 'fr',
        vatId: 'FR40303265045',
        poReference: 'PO-9',
      }),
    });
    expect(placed.status).toBe(201);
    const confirmed = await confirmOrder(t, await confirmationToken(t, billingEmail));
    expect(confirmed.status).toBe(200);
    const { invoiceUrl } = z.object({ invoiceUrl: z.url() }).parse(await confirmed.json());
    const licenceMail = (await mailsTo(t, billingEmail)).find(
      (mail) => mail.kind === 'licence-key',
    );
    expect(licenceMail?.textBody).toMatch(/Download invoice INV-2026-\d{5} \(PDF\)/);
    const link = new URL(licenceMail?.textBody?.match(DOCUMENT_LINK)?.[0] ?? '');
    const number = link.pathname.slice('/documents/'.length, -'.pdf'.length);
    const [row] = await t.deps.database.db
      .select()
      .from(paymentDocuments)
      .where(eq(paymentDocuments.number, number));
    expect(row).toMatchObject({ kind: 'invoice', vatRatePercent: 0, vatMinor: 0 });
    expect(row?.grossMinor).toBe(row?.netMinor);
    const res = await t.app.request(link.pathname + link.search);
    expect(res.status).toBe(200);
    const text = await pdfText(new Uint8Array(await res.arrayBuffer()));
    // The provider's invoice page links the invoice to file.
    const page = await t.app.request(new URL(invoiceUrl).pathname);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(
      `<a href="${link.href.replaceAll('&', '&amp;')}" rel="noreferrer">Download invoice ${number} (PDF)</a>`,
    );
    for (const expected of [
      'Invoice',
      number,
      'Due date',
      '2026-02-14',
      'Exemple SA',
      'VAT ID: FR40303265045',
      'PO-9',
      'VAT 0 % (reverse charge)',
      'Reverse charge: no VAT is charged',
      'by bank transfer by 2026-02-14',
      // The buyer's country by name, as on the quote.
      '75001 Paris\nFrance\n',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toMatch(/Country: FR|\bFR\n/);
  });

  it('invoices show prints a document and --pdf writes the same PDF; unknown numbers fail', async () => {
    const shown = await runAdminOn(t, 'invoices', 'show', 'INV-2026-00001');
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('Receipt INV-2026-00001 of 2026-01-15');
    expect(shown.out).toContain('Gross:   €15,524.74');
    expect(shown.out).toMatch(DOCUMENT_LINK);

    const dir = await mkdtemp(join(tmpdir(), 'invoice-show-'));
    try {
      const file = join(dir, 'out.pdf');
      const written = await runAdminOn(t, 'invoices', 'show', 'INV-2026-00001', '--pdf', file);
      expect(written.code).toBe(0);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const text = await pdfText(await readFile(file));
      expect(text).toContain('INV-2026-00001');
      expect(text).toContain('€15,524.74');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect((await runAdminOn(t, 'invoices', 'show', 'INV-2026-09999')).code).not.toBe(0);
    expect((await runAdminOn(t, 'invoices', 'show', '../etc/passwd')).code).not.toBe(0);
  });
});
