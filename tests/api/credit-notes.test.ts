import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  invoiceOrders,
  licences,
  localCredits,
  localInvoices,
  localSubscriptions,
  paymentDocuments,
  subscriptions,
} from '#server/platform/db/schema.ts';
import { formatCents } from '#shared/pricing/index.ts';
import { enterpriseOrder, orderAndConfirm } from '#tests/security/support/invoice-orders.ts';
import { databaseTargets } from '../support/databases.ts';
import { runAdminOn } from '../support/licensing.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import {
  browser,
  createCheckout,
  licencesOf,
  mailsTo,
  payLocally,
  pro10YearlyEur,
  successCard,
} from './checkout-support.ts';

const run = promisify(execFile);

async function pdfText(bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'credit-note-'));
  try {
    const file = join(dir, 'document.pdf');
    await writeFile(file, bytes);
    return (await run('pdftotext', ['-layout', file, '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The PDF behind a signed document link found in a text. */
async function pdfOfLink(t: TestApp, text: string, number: string): Promise<string> {
  const link = new RegExp(
    `http://localhost:3000/documents/${number}\\.pdf\\?token=[\\w-]{43}`,
  ).exec(text)?.[0];
  expect(link, `a link to ${number}`).toBeDefined();
  const url = new URL(link ?? '');
  const res = await t.app.request(url.pathname + url.search);
  expect(res.status).toBe(200);
  return pdfText(new Uint8Array(await res.arrayBuffer()));
}

function creditNotesOf(t: TestApp, number: string) {
  return t.deps.database.db
    .select()
    .from(paymentDocuments)
    .where(eq(paymentDocuments.creditsNumber, number))
    .orderBy(asc(paymentDocuments.number));
}

async function invoiceDocumentOf(t: TestApp, subscriptionId: string) {
  const [row] = await t.deps.database.db
    .select()
    .from(paymentDocuments)
    .where(
      and(
        eq(paymentDocuments.subscriptionId, subscriptionId),
        eq(paymentDocuments.kind, 'invoice'),
      ),
    );
  if (!row) throw new Error('no invoice document');
  return row;
}

async function licenceOfSubscription(t: TestApp, subscriptionId: string) {
  const [mirror] = await t.deps.database.db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.subscriptionId, subscriptionId));
  const [licence] = await t.deps.database.db
    .select()
    .from(licences)
    .where(eq(licences.id, mirror?.licenceId ?? ''));
  return licence;
}

/** Buys Pro 10 yearly (EUR) by card; returns its receipt's number and subscription. */
async function buyByCard(t: TestApp, email: string) {
  const { sessionId } = await createCheckout(t, pro10YearlyEur);
  expect((await payLocally(t, sessionId, { email, card: successCard })).status).toBe(303);
  const [licence] = await licencesOf(t, email);
  const subscriptionId = licence?.subscriptionId ?? '';
  const [receipt] = await t.deps.database.db
    .select()
    .from(paymentDocuments)
    .where(eq(paymentDocuments.subscriptionId, subscriptionId));
  if (!receipt) throw new Error('no receipt');
  return { receipt, subscriptionId };
}

describe.each(databaseTargets)(
  'payments, cancellations and credit notes (local) on $name',
  (target) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(target, { now: new Date('2026-04-10T09:00:00Z') });
    });
    afterAll(() => t.close());

    it('a paid invoice says so everywhere, and its buyer gets a payment confirmation', async () => {
      const billingEmail = 'ap@paid-invoice.test';
      const confirmed = await orderAndConfirm(t, enterpriseOrder(billingEmail));
      const invoice = await invoiceDocumentOf(t, confirmed.subscriptionId);
      const gross = formatCents(invoice.grossMinor, 'EUR');

      const before = await runAdminOn(t, 'invoices', 'show', invoice.number);
      expect(before.out).toContain(`Status:  unpaid: ${gross} owed by 2026-05-10`);
      // Gross first (what is owed), net and VAT beside it.
      expect(before.out).toContain(`Gross:   ${gross}`);
      expect(before.out).toContain(`Net:     ${formatCents(invoice.netMinor, 'EUR')}`);
      expect(before.out).toContain(`VAT 19 %: ${formatCents(invoice.vatMinor, 'EUR')}`);

      t.setNow(new Date('2026-04-20T09:00:00Z'));
      try {
        const paid = await runAdminOn(t, 'invoices', 'mark-paid', invoice.number);
        expect(paid).toMatchObject({ code: 0, out: `Invoice ${invoice.number} is paid.` });
      } finally {
        t.setNow(new Date('2026-04-10T09:00:00Z'));
      }
      const after = await runAdminOn(t, 'invoices', 'show', invoice.number);
      expect(after.out).toContain('Status:  paid on 2026-04-20');
      expect(after.out).toContain('Payment: bank transfer, due 2026-05-10, paid 2026-04-20');
      expect(after.out).not.toContain('unpaid');

      const confirmation = (await mailsTo(t, billingEmail)).filter(
        (mail) => mail.kind === 'payment-received',
      );
      expect(confirmation).toHaveLength(1);
      expect(confirmation[0]?.subject).toBe(
        `Payment received for Orgsmith invoice ${invoice.number}`,
      );
      expect(confirmation[0]?.textBody).toContain(
        `we received ${gross} for invoice ${invoice.number} on 2026-04-20`,
      );
      const pdf = await pdfOfLink(t, confirmation[0]?.textBody ?? '', invoice.number);
      expect(pdf).toContain('Paid in full by bank transfer on 2026-04-20.');
      expect(pdf).not.toContain('Please pay');

      // The list shows it paid, gross with net and VAT beside, nothing owed.
      const listed = await runAdminOn(t, 'invoices', 'list');
      const line = listed.out.split('\n').find((row) => row.startsWith(invoice.number)) ?? '';
      expect(line).toMatch(
        new RegExp(
          `^${invoice.number}\\s+invoice\\s+2026-04-10\\s+paid\\s+${gross.replace(/[.$]/g, '\\$&')}\\s+`,
        ),
      );
      expect(listed.out.split('\n')[0]).toMatch(
        /^NUMBER\s+KIND\s+ISSUED\s+STATUS\s+GROSS\s+NET\s+VAT\s+OWED\s+BUYER$/,
      );

      // A second mark-paid is refused and sends nothing more.
      expect((await runAdminOn(t, 'invoices', 'mark-paid', invoice.number)).code).toBe(1);
      expect(
        (await mailsTo(t, billingEmail)).filter((mail) => mail.kind === 'payment-received'),
      ).toHaveLength(1);
    });

    it('cancelling an invoiced order credits its invoice, closes it and e-mails the credit note', async () => {
      const billingEmail = 'ap@cancelled-order.test';
      const confirmed = await orderAndConfirm(t, enterpriseOrder(billingEmail));
      const invoice = await invoiceDocumentOf(t, confirmed.subscriptionId);
      const [order] = await t.deps.database.db
        .select()
        .from(invoiceOrders)
        .where(eq(invoiceOrders.billingEmail, billingEmail));
      const help = await runAdminOn(t, 'invoice-orders', 'cancel', '--help');
      expect(help.out).not.toContain('no longer owed there');
      expect(help.out).toContain('credit note');

      const cancelled = await runAdminOn(
        t,
        'invoice-orders',
        'cancel',
        order?.id ?? '',
        '--reason',
        'Ordered twice by mistake',
      );
      expect(cancelled.code).toBe(0);
      const [note, ...more] = await creditNotesOf(t, invoice.number);
      expect(more).toEqual([]);
      expect(note).toMatchObject({
        kind: 'credit_note',
        creditsNumber: invoice.number,
        year: 2026,
        // Positive amounts equal to what was owed: the whole invoice, at its VAT rate.
        netMinor: invoice.netMinor,
        vatMinor: invoice.vatMinor,
        grossMinor: invoice.grossMinor,
        vatRatePercent: 19,
        buyerEmail: billingEmail,
      });
      expect(note?.number).toMatch(/^CN-2026-\d{5}$/);
      expect(cancelled.out).toContain(
        `Invoice ${invoice.number} is credited (${formatCents(invoice.grossMinor, 'EUR')} no longer owed): credit note ${note?.number}`,
      );

      // The invoice is closed: nothing owed, no reminder, the licence has ended.
      const shown = await runAdminOn(t, 'invoices', 'show', invoice.number);
      expect(shown.out).toContain(
        `Status:  cancelled: credited in full (${note?.number}), nothing owed`,
      );
      const [local] = await t.deps.database.db
        .select()
        .from(localInvoices)
        .where(eq(localInvoices.id, invoice.providerInvoiceId));
      expect(local?.status).toBe('void');
      const licence = await licenceOfSubscription(t, confirmed.subscriptionId);
      expect(licence?.subscriptionStatus).toBe('canceled');

      const mail = (await mailsTo(t, billingEmail)).find(
        (row) => row.kind === 'payment-credit-note',
      );
      expect(mail?.subject).toBe(`Your Orgsmith credit note ${note?.number}`);
      expect(mail?.textBody).toContain(`Invoice ${invoice.number} is cancelled`);
      const text = await pdfOfLink(t, mail?.textBody ?? '', note?.number ?? '');
      const invoiceIssued = invoice.issuedOn;
      for (const expected of [
        'Credit note',
        note?.number ?? '',
        'Corrects invoice',
        invoice.number,
        'Invoice date',
        invoiceIssued,
        'Acme Holding GmbH',
        'Total credited',
        formatCents(invoice.grossMinor, 'EUR'),
        `It reverses ${formatCents(invoice.vatMinor, 'EUR')} of the VAT 19 % charged on ${invoice.number}`,
        'no longer owed',
        'Reason: Ordered twice by mistake',
      ]) {
        expect(text, expected).toContain(expected);
      }

      // The provider's invoice page says it is cancelled and links its credit note.
      const invoicePage = await (
        await t.app.request(new URL(confirmed.invoiceUrl).pathname)
      ).text();
      expect(invoicePage).toContain('<span class="badge muted">Cancelled</span>');
      expect(invoicePage).toContain(`Download credit note ${note?.number} (PDF)`);
      expect(invoicePage).toContain('Nothing is to be paid.');
      expect(invoicePage).not.toContain('Pay by bank transfer');

      // Cancelled already: refused, and no second credit note.
      expect((await runAdminOn(t, 'invoice-orders', 'cancel', order?.id ?? '')).code).toBe(1);
      expect(await creditNotesOf(t, invoice.number)).toHaveLength(1);
    });

    it('refunds part of a card payment with a credit note at the receipt’s VAT, once per action', async () => {
      const email = 'buyer@partial-refund.test';
      const { receipt, subscriptionId } = await buyByCard(t, email);
      const refund = [
        'payments',
        'refund',
        receipt.number,
        '--amount',
        '119.00',
        '--reason',
        'Goodwill for an outage',
      ];
      const first = await runAdminOn(t, ...refund);
      expect(first.code).toBe(0);
      const [note] = await creditNotesOf(t, receipt.number);
      // €119.00 gross at 19 %: €100.00 net and €19.00 VAT reversed.
      expect(note).toMatchObject({ grossMinor: 11_900, netMinor: 10_000, vatMinor: 1_900 });
      expect(first.out).toContain(
        `Refunded €119.00 of ${receipt.number}: credit note ${note?.number}`,
      );

      // Run twice: one refund, one credit note, one e-mail; the answer names the first.
      const second = await runAdminOn(t, ...refund);
      expect(second.code).toBe(0);
      expect(second.out).toContain(
        `Already refunded: €119.00 of ${receipt.number}, credit note ${note?.number}`,
      );
      expect(await creditNotesOf(t, receipt.number)).toHaveLength(1);
      expect(
        await t.deps.database.db
          .select()
          .from(localCredits)
          .where(eq(localCredits.invoiceId, receipt.providerInvoiceId)),
      ).toHaveLength(1);
      expect(
        (await mailsTo(t, email)).filter((mail) => mail.kind === 'payment-credit-note'),
      ).toHaveLength(1);

      // A partial refund keeps the licence.
      const licence = await licenceOfSubscription(t, subscriptionId);
      expect(licence?.subscriptionStatus).toBe('active');
      const shown = await runAdminOn(t, 'invoices', 'show', receipt.number);
      expect(shown.out).toContain(
        `Status:  paid on 2026-04-10, €119.00 refunded (${note?.number})`,
      );

      const pdf = await pdfOfLink(
        t,
        (await mailsTo(t, email)).find((mail) => mail.kind === 'payment-credit-note')?.textBody ??
          '',
        note?.number ?? '',
      );
      for (const expected of [
        'Corrects receipt',
        receipt.number,
        'Receipt date',
        '€119.00 is refunded to the card it was paid with on 2026-04-10.',
        `It reverses €19.00 of the VAT 19 % charged on ${receipt.number} (net €100.00).`,
        'Reason: Goodwill for an outage',
      ]) {
        expect(pdf, expected).toContain(expected);
      }
    });

    it('refuses more than is left, and a full refund of the rest ends the licence', async () => {
      const email = 'buyer@full-refund.test';
      const { receipt, subscriptionId } = await buyByCard(t, email);
      const gross = receipt.grossMinor;
      const first = await runAdminOn(
        t,
        'payments',
        'refund',
        receipt.number,
        '--amount',
        '1000.01',
        '--reason',
        'Part of it',
      );
      expect(first.code).toBe(0);
      const rest = gross - 100_001;

      const tooMuch = await runAdminOn(
        t,
        'payments',
        'refund',
        receipt.number,
        '--amount',
        ((rest + 1) / 100).toFixed(2),
        '--reason',
        'Too much',
      );
      expect(tooMuch.code).toBe(1);
      expect(tooMuch.err).toContain(
        `Refused: ${receipt.number} has EUR ${(rest / 100).toFixed(2)} left to refund: nothing was refunded.`,
      );
      expect(await creditNotesOf(t, receipt.number)).toHaveLength(1);

      const all = await runAdminOn(
        t,
        'payments',
        'refund',
        receipt.number,
        '--reason',
        'Cancelled',
      );
      expect(all.code).toBe(0);
      expect(all.out).toContain(`subscription ${subscriptionId} and its licence have ended`);
      const notes = await creditNotesOf(t, receipt.number);
      expect(notes).toHaveLength(2);
      // The credit notes add up to the receipt to the cent, net and VAT alike.
      const sum = (pick: (row: (typeof notes)[number]) => number) =>
        notes.reduce((total, row) => total + pick(row), 0);
      expect(sum((row) => row.grossMinor)).toBe(receipt.grossMinor);
      expect(sum((row) => row.netMinor)).toBe(receipt.netMinor);
      expect(sum((row) => row.vatMinor)).toBe(receipt.vatMinor);

      const [local] = await t.deps.database.db
        .select()
        .from(localSubscriptions)
        .where(eq(localSubscriptions.id, subscriptionId));
      expect(local?.status).toBe('canceled');
      const licence = await licenceOfSubscription(t, subscriptionId);
      expect(licence?.subscriptionStatus).toBe('canceled');
      expect((await runAdminOn(t, 'invoices', 'show', receipt.number)).out).toContain(
        'refunded in full',
      );
      // Nothing is left: another refund is refused.
      const again = await runAdminOn(t, 'payments', 'refund', receipt.number, '--reason', 'More');
      expect(again.code).toBe(1);
      expect(again.err).toContain('has EUR 0.00 left to refund');
    });

    it('two refunds at once never pay back more than was paid', async () => {
      const { receipt } = await buyByCard(t, 'buyer@racing-refunds.test');
      const share = (Math.floor(receipt.grossMinor * 0.6) / 100).toFixed(2);
      const [a, b] = await Promise.all([
        runAdminOn(t, 'payments', 'refund', receipt.number, '--amount', share, '--reason', 'First'),
        runAdminOn(
          t,
          'payments',
          'refund',
          receipt.number,
          '--amount',
          share,
          '--reason',
          'Second',
        ),
      ]);
      expect([a.code, b.code].sort()).toEqual([0, 1]);
      expect([a.err, b.err].join('')).toContain('left to refund: nothing was refunded');
      const notes = await creditNotesOf(t, receipt.number);
      expect(notes).toHaveLength(1);
      expect(
        await t.deps.database.db
          .select()
          .from(localCredits)
          .where(eq(localCredits.invoiceId, receipt.providerInvoiceId)),
      ).toHaveLength(1);
    });

    it('refuses a refund of an unpaid invoice, of a credit note, and bad input, changing nothing', async () => {
      const billingEmail = 'ap@unpaid-refund.test';
      const confirmed = await orderAndConfirm(t, enterpriseOrder(billingEmail));
      const invoice = await invoiceDocumentOf(t, confirmed.subscriptionId);
      const countBefore = (await t.deps.database.db.select().from(paymentDocuments)).length;

      const unpaid = await runAdminOn(t, 'payments', 'refund', invoice.number, '--reason', 'Why');
      expect(unpaid.code).toBe(1);
      expect(unpaid.err).toContain(`${invoice.number} is not paid: there is nothing to refund`);
      expect(unpaid.err).toContain('invoice-orders cancel');

      const [creditNote] = await t.deps.database.db
        .select()
        .from(paymentDocuments)
        .where(eq(paymentDocuments.kind, 'credit_note'));
      const ofNote = await runAdminOn(
        t,
        'payments',
        'refund',
        creditNote?.number ?? '',
        '--reason',
        'Nope',
      );
      expect(ofNote.code).toBe(1);
      expect(ofNote.err).toContain('is a credit note');

      for (const [argv, message] of [
        [['payments', 'refund', invoice.number], '--reason "…" is required'],
        [['payments', 'refund', invoice.number, '--reason', 'x'], '--reason "…" is required'],
        [['payments', 'refund', invoice.number, '--reason', 'ok\u202Eok'], ''],
        [
          ['payments', 'refund', invoice.number, '--reason', 'Why', '--amount', '12,50'],
          '--amount',
        ],
        [['payments', 'refund', invoice.number, '--reason', 'Why', '--amount', '0'], 'more than 0'],
        [
          ['payments', 'refund', invoice.number, '--reason', 'Why', '--amount', '1.234'],
          '--amount',
        ],
        [['payments', 'refund', '../../etc', '--reason', 'Why'], 'Name the invoice'],
        [['payments', 'refund', 'INV-2026-99999', '--reason', 'Why'], 'No invoice or receipt'],
        [['invoice-orders', 'cancel', 'io_aaaaaaaaaaaaaaaa', '--reason', 'a\nb'], ''],
      ] as const) {
        const result = await runAdminOn(t, ...argv);
        expect(result.code, argv.join(' ')).not.toBe(0);
        expect(result.err, argv.join(' ')).toContain(message);
      }
      expect((await t.deps.database.db.select().from(paymentDocuments)).length).toBe(countBefore);
      expect((await runAdminOn(t, 'invoices', 'show', invoice.number)).out).toContain(
        'Status:  unpaid',
      );
    });

    it('the billing portal shows what is charged with VAT, each document to download, and what it can change', async () => {
      const email = 'buyer@portal-documents.test';
      const { receipt } = await buyByCard(t, email);
      const refunded = await runAdminOn(
        t,
        'payments',
        'refund',
        receipt.number,
        '--amount',
        '11.90',
        '--reason',
        'Portal test',
      );
      expect(refunded.code).toBe(0);
      const [note] = await creditNotesOf(t, receipt.number);
      const [licence] = await licencesOf(t, email);
      const { url } = await t.deps.payments.createBillingPortalSession({
        customerId: licence?.customerId ?? '',
        returnUrl: 'http://localhost:3000/',
      });
      const page = (await (await browser(t, new URL(url).pathname)).text()).replace(/\s+/g, ' ');
      // Pro 10 yearly in EUR: €13,046.00 net, charged €15,524.74 with German VAT (decision 180).
      expect(page).toContain('€15,524.74 (€13,046.00 plus VAT 19 %)');
      expect(page).not.toMatch(/Next payment<\/dt> ?<dd>[^<]*€13,046\.00</);
      expect(page).toMatch(/<td class="amount">€15,524\.74<\/td> ?<td>Paid, partly refunded<\/td>/);
      const links = [
        ...page.matchAll(
          /href="(\/documents\/[^"]+)"|href="(http:\/\/localhost:3000\/documents\/[^"]+)"/g,
        ),
      ].map(
        (match) =>
          new URL((match[1] ?? match[2] ?? '').replaceAll('&amp;', '&'), 'http://localhost:3000'),
      );
      const numbers = links.map((link) =>
        link.pathname.slice('/documents/'.length, -'.pdf'.length),
      );
      expect(numbers).toEqual([receipt.number, note?.number]);
      for (const link of links) {
        const res = await t.app.request(link.pathname + link.search);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/pdf');
      }
      expect(page).toContain('This test-mode portal changes only your card.');
      expect(page).toContain('Billing details');
    });

    it('numbers credit notes in their own gap-free series beside the invoices', async () => {
      const notes = await t.deps.database.db
        .select()
        .from(paymentDocuments)
        .where(eq(paymentDocuments.kind, 'credit_note'))
        .orderBy(asc(paymentDocuments.sequence));
      expect(notes.map((row) => row.number)).toEqual(
        notes.map((_, index) => `CN-2026-${String(index + 1).padStart(5, '0')}`),
      );
      const invoicesAndReceipts = await t.deps.database.db
        .select()
        .from(paymentDocuments)
        .where(eq(paymentDocuments.year, 2026))
        .orderBy(asc(paymentDocuments.sequence));
      const inv = invoicesAndReceipts.filter((row) => row.kind !== 'credit_note');
      expect(inv.map((row) => row.number)).toEqual(
        inv.map((_, index) => `INV-2026-${String(index + 1).padStart(5, '0')}`),
      );
      const listed = await runAdminOn(t, 'invoices', 'list');
      for (const row of notes) {
        expect(listed.out).toMatch(
          new RegExp(
            `^${row.number}\\s+credit note\\s+2026-04-10\\s+corrects ${row.creditsNumber}`,
            'm',
          ),
        );
      }
    });
  },
);
