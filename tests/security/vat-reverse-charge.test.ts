import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { paymentDocuments, quotes } from '#server/platform/db/schema.ts';
import { quoteDocumentSchema } from '#server/billing/quotes/quote-document.ts';
import { mailsTo } from '#tests/api/checkout-support.ts';
import { postJson } from '#tests/api/account-support.ts';
import { databaseTargets } from '../support/databases.ts';
import { runAdminOn } from '../support/licensing.ts';
import type { ViesFake } from '../support/vies-fake.ts';
import {
  confirmationToken,
  confirmOrder,
  enterpriseOrder,
  openWorld,
  placeOrder,
  type OrderWorld,
} from './support/invoice-orders.ts';

/**
 * Issue 38, the Tax invariant (decision 210): 0 % reverse charge only for an EU VAT ID that
 * passes its country's check digits and that VIES confirmed, its consultation number on the
 * document. The attack: a quote or invoice order for France with the made-up `FR00000000000`
 * (or Austria's `ATU00000000`) got "VAT 0 % (reverse charge)"; an invoiced Enterprise order
 * went out €6,650 short. Now a made-up ID, an ID VIES calls invalid and an ID VIES cannot
 * answer for are charged 19 %; only VIES's yes makes it 0 %, and the PDF says so.
 */

const run = promisify(execFile);
const start = new Date('2026-03-02T10:00:00Z');
/** Enterprise 25 seats, yearly, in EUR: €35,002 net, €6,650.38 of VAT at 19 %. */
const NET_CENTS = 3_500_200;
const VAT_CENTS = 665_038;

/** The text of a PDF as poppler's pdftotext reads it. */
async function pdfText(bytes: ArrayBuffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vat-reverse-charge-'));
  try {
    const file = join(dir, 'document.pdf');
    await writeFile(file, Buffer.from(bytes));
    return (await run('pdftotext', ['-layout', file, '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const quoteAnswer = z.object({ number: z.string(), downloadUrl: z.url() });
const orderAnswer = z.object({ invoiceUrl: z.url(), amountDue: z.number().int() });
const DOCUMENT_LINK = /http:\/\/localhost:3000\/documents\/INV-\d{4}-\d{5}\.pdf\?token=[\w-]{43}/;

/** A French (or other EU) buyer, as the forms send it. */
const buyerIn = (country: string, vatId: string) => ({
  companyName: 'Exemple SA',
  addressLine: '1 rue de Rivoli',
  postalCode: '75001',
  city: 'Paris',
  country,
  vatId,
});

const consultationOf = (vies: ViesFake | undefined, vatId: string) =>
  vies?.consultations.get(vatId) ?? '(none)';

describe.each(databaseTargets)('the reverse charge needs VIES on $name', (target) => {
  describe('with the local provider', () => {
    let world: OrderWorld;
    beforeAll(async () => {
      world = await openWorld(target, 'local', start);
    });
    afterAll(() => world.close());

    /** A quote for Enterprise 25 yearly in EUR: its stored tax and its PDF's text. */
    async function quote(email: string, country: string, vatId: string) {
      const response = await postJson(world.t, '/account/v1/quotes', {
        ...buyerIn(country, vatId),
        emailAddress: email,
        edition: 'Enterprise',
        quantity: 25,
        billingPeriod: 'yearly',
        billingCurrency: 'EUR',
      });
      expect(response.status).toBe(201);
      const answer = quoteAnswer.parse(await response.json());
      const [row] = await world.t.deps.database.db
        .select()
        .from(quotes)
        .where(eq(quotes.number, answer.number));
      const url = new URL(answer.downloadUrl);
      const pdf = await world.t.app.request(url.pathname + url.search);
      expect(pdf.status).toBe(200);
      return {
        number: answer.number,
        tax: quoteDocumentSchema.parse(row?.document).tax,
        text: await pdfText(await pdf.arrayBuffer()),
      };
    }

    /** An invoice order for Enterprise 25 yearly in EUR, confirmed: amount due and invoice PDF. */
    async function invoiceOrder(email: string, country: string, vatId: string) {
      const placed = await placeOrder(world.t, {
        ...enterpriseOrder(email),
        ...buyerIn(country, vatId),
      });
      expect(placed.status).toBe(201);
      const confirmed = await confirmOrder(world.t, await confirmationToken(world.t, email));
      expect(confirmed.status).toBe(200);
      const order = orderAnswer.parse(await confirmed.json());
      const licenceMail = (await mailsTo(world.t, email)).find(
        (mail) => mail.kind === 'licence-key',
      );
      const link = new URL(licenceMail?.textBody?.match(DOCUMENT_LINK)?.[0] ?? '');
      const number = link.pathname.slice('/documents/'.length, -'.pdf'.length);
      const [document] = await world.t.deps.database.db
        .select()
        .from(paymentDocuments)
        .where(eq(paymentDocuments.number, number));
      const pdf = await world.t.app.request(link.pathname + link.search);
      expect(pdf.status).toBe(200);
      return { order, document, text: await pdfText(await pdf.arrayBuffer()) };
    }

    it.each([
      { country: 'FR', vatId: 'FR00000000000' },
      { country: 'AT', vatId: 'ATU00000000' },
    ])(
      'a made-up VAT ID $vatId: German VAT on the quote and the invoice, VIES never asked',
      async ({ country, vatId }) => {
        const asked = world.t.vies?.requests.length;
        const quoted = await quote(`q-${vatId}@made-up.test`, country, vatId);
        expect(quoted.tax).toMatchObject({
          case: 'eu-vat-id-unconfirmed',
          ratePercent: 19,
          vatCents: VAT_CENTS,
          grossCents: NET_CENTS + VAT_CENTS,
        });
        expect(quoted.text).toMatch(/VAT 19 %\s+€6,650\.38/);
        expect(quoted.text).not.toContain('reverse charge)');
        expect(quoted.text.replace(/\s+/g, ' ')).toContain('has not confirmed this VAT ID');

        const invoiced = await invoiceOrder(`o-${vatId}@made-up.test`, country, vatId);
        expect(invoiced.order.amountDue).toBe(NET_CENTS + VAT_CENTS);
        expect(invoiced.document).toMatchObject({ vatRatePercent: 19, vatMinor: VAT_CENTS });
        expect(invoiced.text).toMatch(/VAT 19 %\s+€6,650\.38/);
        expect(invoiced.text).not.toContain('reverse charge)');
        // Wrong check digits: nothing to ask VIES.
        expect(world.t.vies?.requests.length).toBe(asked);
      },
    );

    it('an ID with the right check digits that VIES calls invalid: 19 %', async () => {
      // FR23334175221: a real-format French number whose key matches, unknown to (the fake) VIES.
      const quoted = await quote('q-invalid@vies-no.test', 'FR', 'FR23334175221');
      expect(quoted.tax).toMatchObject({ case: 'eu-vat-id-unconfirmed', vatCents: VAT_CENTS });
      expect(quoted.text).toMatch(/VAT 19 %\s+€6,650\.38/);
      const invoiced = await invoiceOrder('o-invalid@vies-no.test', 'FR', 'FR23334175221');
      expect(invoiced.order.amountDue).toBe(NET_CENTS + VAT_CENTS);
      expect(invoiced.text).toMatch(/VAT 19 %\s+€6,650\.38/);
      expect(world.t.vies?.requests).toContainEqual(
        expect.objectContaining({ countryCode: 'FR', vatNumber: '23334175221' }),
      );
    });

    it('VIES unavailable for the member state: 19 %, never a reverse charge on no answer', async () => {
      world.t.vies?.setUnavailable('FR');
      try {
        const quoted = await quote('q-down@vies-down.test', 'FR', 'FR40303265045');
        expect(quoted.tax).toMatchObject({ case: 'eu-vat-id-unconfirmed', vatCents: VAT_CENTS });
        const invoiced = await invoiceOrder('o-down@vies-down.test', 'FR', 'FR40303265045');
        expect(invoiced.order.amountDue).toBe(NET_CENTS + VAT_CENTS);
      } finally {
        world.t.vies?.setUnavailable('FR', false);
      }
    });

    it('VIES confirms: 0 % with the consultation number on the quote and the invoice PDF', async () => {
      const quoted = await quote('q-ok@vies-yes.test', 'FR', 'FR40303265045');
      const quoteConsultation = consultationOf(world.t.vies, 'FR40303265045');
      expect(quoted.tax).toMatchObject({ case: 'reverse-charge', ratePercent: 0, vatCents: 0 });
      expect(quoted.text).toMatch(/VAT 0 % \(reverse charge\)\s+€0\.00/);
      expect(quoted.text.replace(/\s+/g, ' ')).toContain(
        `VAT ID FR40303265045 confirmed by VIES on 2026-03-02, consultation number ${quoteConsultation}`,
      );
      expect(quoteConsultation).toMatch(/^WAPI/);
      // The operator sees it too.
      const shown = await runAdminOn(world.t, 'quotes', 'show', quoted.number);
      expect(shown.out).toContain(
        `VIES:            confirmed on 2026-03-02, consultation number ${quoteConsultation}`,
      );

      const invoiced = await invoiceOrder('o-ok@vies-yes.test', 'FR', 'FR40303265045');
      const invoiceConsultation = consultationOf(world.t.vies, 'FR40303265045');
      // The order asked VIES again: the invoice carries its own consultation.
      expect(invoiceConsultation).not.toBe(quoteConsultation);
      expect(invoiced.order.amountDue).toBe(NET_CENTS);
      expect(invoiced.document).toMatchObject({ vatRatePercent: 0, vatMinor: 0 });
      expect(invoiced.text).toContain('VAT 0 % (reverse charge)');
      expect(invoiced.text.replace(/\s+/g, ' ')).toContain(
        `confirmed by VIES on 2026-03-02, consultation number ${invoiceConsultation}`,
      );
      // VIES was asked as the seller (a qualified request, which is what yields the number).
      expect(world.t.vies?.requests.at(-1)).toMatchObject({
        countryCode: 'FR',
        vatNumber: '40303265045',
        requesterMemberStateCode: 'DE',
      });
    });
  });

  describe('with Stripe', () => {
    let world: OrderWorld;
    beforeAll(async () => {
      world = await openWorld(target, 'stripe', start);
    });
    afterAll(() => world.close());

    async function customerOf(email: string, vatId: string) {
      const placed = await placeOrder(world.t, {
        ...enterpriseOrder(email),
        ...buyerIn('FR', vatId),
      });
      expect(placed.status).toBe(201);
      const confirmed = await confirmOrder(world.t, await confirmationToken(world.t, email));
      expect(confirmed.status).toBe(200);
      return world.fake
        ?.requestsTo('POST', '/v1/customers')
        .find((request) => JSON.stringify(request.body).includes(email))?.body;
    }

    it('a made-up VAT ID is no `eu_vat` tax ID, so Stripe Tax charges 19 %; a confirmed one is', async () => {
      const madeUp = await customerOf('ap@stripe-made-up.test', 'FR00000000000');
      expect(madeUp).not.toHaveProperty('tax_id_data');
      expect(madeUp).toMatchObject({
        invoice_settings: {
          custom_fields: [
            { name: 'VAT ID', value: 'FR00000000000' },
            { name: 'PO number', value: 'PO-4711' },
          ],
        },
      });

      const confirmed = await customerOf('ap@stripe-confirmed.test', 'FR40303265045');
      expect(confirmed).toMatchObject({
        tax_id_data: [{ type: 'eu_vat', value: 'FR40303265045' }],
        invoice_settings: {
          custom_fields: [
            {
              name: 'VAT ID confirmed by VIES',
              value: consultationOf(world.t.vies, 'FR40303265045'),
            },
            { name: 'PO number', value: 'PO-4711' },
          ],
        },
      });
    });
  });
});
