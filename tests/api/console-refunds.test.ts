import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { handlePaymentEvent, syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import { refundNeedsApproval } from '#server/billing/refunds/refund-approval.ts';
import { parseEnv } from '#server/env.ts';
import {
  auditEvents,
  licences,
  paymentDocuments,
  refundRequests,
  subscriptions,
} from '#server/platform/db/schema.ts';
import {
  enterpriseOrder,
  openWorld,
  orderAndConfirm,
  type OrderWorld,
} from '#tests/security/support/invoice-orders.ts';
import { signedInOperator, type ConsoleTestOperator } from '../support/console-operator.ts';
import { databaseTargets } from '../support/databases.ts';
import type { StripeFake } from '../support/stripe-fake.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import {
  createCheckout,
  licencesOf,
  payLocally,
  pro10YearlyEur,
  successCard,
} from './checkout-support.ts';

const requestView = z.object({
  id: z.uuid(),
  reference: z.string(),
  amountMinor: z.number(),
  currency: z.enum(['EUR', 'USD']),
  status: z.enum(['pending', 'refunding', 'refunded', 'rejected', 'failed']),
  creditNoteNumber: z.string().nullable(),
  endedSubscription: z.string().nullable(),
});
const answer = z.object({ replayed: z.boolean(), request: requestView });
const previewAnswer = z.object({
  preview: z.object({
    reference: z.string(),
    currency: z.string(),
    paidMinor: z.number(),
    refundableMinor: z.number(),
    amountMinor: z.number(),
    creditNoteBy: z.enum(['us', 'provider']),
    subscriptionId: z.string().nullable(),
    endsSubscription: z.boolean(),
  }),
  needsApproval: z.boolean(),
  approvalAboveMinor: z.number(),
  licence: z.object({ id: z.string(), email: z.string() }).nullable(),
});
const errorAnswer = z.object({ Error: z.string(), message: z.string() });

async function errorOf(response: Response) {
  return errorAnswer.parse(await response.json());
}

describe('REFUND_APPROVAL_ABOVE', () => {
  it('is 500 per currency unless set, per currency or 0 for every refund; anything else stops the start', () => {
    const env = (value?: string) =>
      parseEnv({
        PUBLIC_BASE_URL: 'http://localhost:3000',
        ...(value === undefined ? {} : { REFUND_APPROVAL_ABOVE: value }),
      }).refundApprovalAboveMinor;
    expect(env()).toEqual({ EUR: 50_000, USD: 50_000 });
    expect(env('EUR:1000')).toEqual({ EUR: 100_000, USD: 50_000 });
    expect(env('0')).toEqual({ EUR: 0, USD: 0 });
    expect(() => env('lots')).toThrow(/REFUND_APPROVAL_ABOVE/);
    const above = { EUR: 50_000, USD: 50_000 };
    expect(refundNeedsApproval(above, { amountMinor: 50_000, currency: 'EUR' })).toBe(false);
    expect(refundNeedsApproval(above, { amountMinor: 50_001, currency: 'EUR' })).toBe(true);
    expect(refundNeedsApproval({ EUR: 0, USD: 0 }, { amountMinor: 1, currency: 'USD' })).toBe(true);
  });
});

describe.each(databaseTargets)('refunds from the console, local provider, on $name', (target) => {
  let t: TestApp;
  let support: ConsoleTestOperator;
  let financeA: ConsoleTestOperator;
  let financeB: ConsoleTestOperator;
  let viewer: ConsoleTestOperator;

  beforeAll(async () => {
    t = await createTestApp(target, {
      now: new Date('2026-05-04T09:00:00Z'),
      env: { REFUND_APPROVAL_ABOVE: 'EUR:500,USD:500' },
    });
    support = await signedInOperator(t, 'support');
    financeA = await signedInOperator(t, 'finance');
    financeB = await signedInOperator(t, 'finance');
    viewer = await signedInOperator(t, 'viewer');
  });
  afterAll(() => t.close());

  const db = () => t.deps.database.db;

  /** Buys Pro 10 yearly (EUR) by card: its receipt and subscription. */
  async function buyByCard(email: string) {
    const { sessionId } = await createCheckout(t, pro10YearlyEur);
    expect((await payLocally(t, sessionId, { email, card: successCard })).status).toBe(303);
    const [licence] = await licencesOf(t, email);
    const subscriptionId = licence?.subscriptionId ?? '';
    const [receipt] = await db()
      .select()
      .from(paymentDocuments)
      .where(eq(paymentDocuments.subscriptionId, subscriptionId));
    if (!receipt) throw new Error('no receipt');
    return { receipt, subscriptionId };
  }

  const creditNotes = () =>
    db().select().from(paymentDocuments).where(eq(paymentDocuments.kind, 'credit_note'));
  const requestRows = () => db().select().from(refundRequests);

  async function licenceStatusOf(subscriptionId: string) {
    const [row] = await db()
      .select({ status: licences.subscriptionStatus })
      .from(subscriptions)
      .innerJoin(licences, eq(licences.id, subscriptions.licenceId))
      .where(eq(subscriptions.subscriptionId, subscriptionId));
    return row?.status;
  }

  it('previews what a refund does to the licence, changing nothing', async () => {
    const { receipt, subscriptionId } = await buyByCard('buyer@preview-refund.test');
    const before = { notes: (await creditNotes()).length, requests: (await requestRows()).length };

    const part = await support.request('refunds/preview', {
      body: { reference: receipt.number, amountMinor: 10_000, reason: 'Goodwill' },
    });
    expect(part.status).toBe(200);
    expect(previewAnswer.parse(await part.json())).toMatchObject({
      preview: {
        reference: receipt.number,
        paidMinor: receipt.grossMinor,
        refundableMinor: receipt.grossMinor,
        amountMinor: 10_000,
        creditNoteBy: 'us',
        subscriptionId,
        endsSubscription: false,
      },
      needsApproval: false,
      approvalAboveMinor: 50_000,
      licence: { email: 'buyer@preview-refund.test' },
    });

    const rest = await support.request('refunds/preview', {
      body: { reference: receipt.number, reason: 'Contract ended' },
    });
    expect(previewAnswer.parse(await rest.json())).toMatchObject({
      preview: { amountMinor: receipt.grossMinor, endsSubscription: true },
      needsApproval: receipt.grossMinor > 50_000,
    });

    const tooMuch = await support.request('refunds/preview', {
      body: { reference: receipt.number, amountMinor: receipt.grossMinor + 1, reason: 'Too much' },
    });
    expect(tooMuch.status).toBe(422);
    expect((await errorOf(tooMuch)).Error).toBe('TooMuch');

    const unknown = await support.request('refunds/preview', {
      body: { reference: 'INV-2026-99999', reason: 'Nothing' },
    });
    expect(unknown.status).toBe(404);
    expect(
      (
        await viewer.request('refunds/preview', {
          body: { reference: receipt.number, reason: 'Look' },
        })
      ).status,
    ).toBe(403);

    expect((await creditNotes()).length).toBe(before.notes);
    expect((await requestRows()).length).toBe(before.requests);
    expect(await licenceStatusOf(subscriptionId)).toBe('active');
  });

  it('refunds below the threshold at once, once however often the form is sent, with the next credit note', async () => {
    const { receipt, subscriptionId } = await buyByCard('buyer@console-refund.test');
    const year = receipt.issuedOn.slice(0, 4);
    const numbers = (await creditNotes()).map((note) => note.sequence);
    const next = `CN-${year}-${String(Math.max(0, ...numbers) + 1).padStart(5, '0')}`;
    const form = {
      reference: receipt.number,
      amountMinor: 11_900,
      reason: 'Goodwill for an outage',
    };

    // Sent twice at once, then once more: one request, one refund, one credit note.
    const [first, second] = await Promise.all([
      support.request('refunds', { body: form }),
      support.request('refunds', { body: form }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 201]);
    const answers = [answer.parse(await first.json()), answer.parse(await second.json())];
    const made = answers.find((one) => !one.replayed);
    expect(made?.request).toMatchObject({
      reference: receipt.number,
      amountMinor: 11_900,
      status: 'refunded',
      creditNoteNumber: next,
      endedSubscription: null,
    });
    expect(answers.map((one) => one.request.id)).toEqual([made?.request.id, made?.request.id]);
    const third = await support.request('refunds', { body: form });
    expect(third.status).toBe(200);
    expect(answer.parse(await third.json())).toMatchObject({
      replayed: true,
      request: { id: made?.request.id, status: 'refunded', creditNoteNumber: next },
    });
    const notes = (await creditNotes()).filter((note) => note.creditsNumber === receipt.number);
    expect(notes.map((note) => [note.number, note.grossMinor])).toEqual([[next, 11_900]]);
    expect(await licenceStatusOf(subscriptionId)).toBe('active');

    // The credit note's PDF opens from the console.
    const pdf = await viewer.request(`documents/${next}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    // Audited as the operator, with the reason.
    const events = await db()
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.targetId, made?.request.id ?? ''),
          like(auditEvents.action, 'refund_request.%'),
        ),
      );
    expect(events.map((event) => [event.action, event.actor])).toEqual([
      ['refund_request.created', `operator:${support.id}`],
      ['refund_request.refunded', `operator:${support.id}`],
    ]);

    // The recent refunds list it.
    const listed = await viewer.request('refunds');
    expect(listed.status).toBe(200);
    const body = z
      .object({ recent: z.array(z.object({ id: z.string(), requestedBy: z.string() })) })
      .parse(await listed.json());
    expect(body.recent.find((row) => row.id === made?.request.id)?.requestedBy).toBe(support.email);
  });

  it('above the threshold waits for a second operator: not the requester, then it refunds and ends the licence', async () => {
    const { receipt, subscriptionId } = await buyByCard('buyer@approved-refund.test');
    expect(receipt.grossMinor).toBeGreaterThan(50_000);
    const notesBefore = (await creditNotes()).length;

    const asked = await financeA.request('refunds', {
      body: { reference: receipt.number, reason: 'Customer left within the first week' },
    });
    expect(asked.status).toBe(202);
    const pending = answer.parse(await asked.json()).request;
    expect(pending).toMatchObject({
      status: 'pending',
      amountMinor: receipt.grossMinor,
      creditNoteNumber: null,
    });
    expect((await creditNotes()).length).toBe(notesBefore);
    expect(await licenceStatusOf(subscriptionId)).toBe('active');

    // The queue shows it; the requester's own is marked.
    const queue = z
      .object({ pending: z.array(z.object({ id: z.string(), ownRequest: z.boolean() })) })
      .parse(await (await financeA.request('refunds')).json());
    expect(queue.pending.find((row) => row.id === pending.id)?.ownRequest).toBe(true);

    const own = await financeA.request(`refunds/${pending.id}/approve`, { method: 'POST' });
    expect(own.status).toBe(403);
    expect((await errorOf(own)).Error).toBe('OwnRefundRequest');
    const bySupport = await support.request(`refunds/${pending.id}/approve`, { method: 'POST' });
    expect(bySupport.status).toBe(403);
    expect((await errorOf(bySupport)).Error).toBe('PermissionDenied');
    expect((await creditNotes()).length).toBe(notesBefore);

    const approved = await financeB.request(`refunds/${pending.id}/approve`, { method: 'POST' });
    expect(approved.status).toBe(200);
    const done = z.object({ request: requestView }).parse(await approved.json()).request;
    expect(done).toMatchObject({ status: 'refunded', endedSubscription: subscriptionId });
    expect(done.creditNoteNumber).toMatch(/^CN-\d{4}-\d{5}$/);
    expect((await creditNotes()).length).toBe(notesBefore + 1);
    expect(await licenceStatusOf(subscriptionId)).toBe('canceled');
    const [row] = await db().select().from(refundRequests).where(eq(refundRequests.id, pending.id));
    expect(row).toMatchObject({
      requestedBy: `operator:${financeA.id}`,
      reviewedBy: `operator:${financeB.id}`,
    });

    const again = await financeB.request(`refunds/${pending.id}/approve`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect((await creditNotes()).length).toBe(notesBefore + 1);
  });

  it('rejects a waiting refund with a reason: nothing is refunded', async () => {
    const { receipt } = await buyByCard('buyer@rejected-refund.test');
    const asked = await support.request('refunds', {
      body: { reference: receipt.number, reason: 'Asked for a refund by phone' },
    });
    expect(asked.status).toBe(202);
    const { id } = answer.parse(await asked.json()).request;
    const noReason = await financeA.request(`refunds/${id}/reject`, { body: {} });
    expect(noReason.status).toBe(400);
    const rejected = await financeA.request(`refunds/${id}/reject`, {
      body: { reason: 'No such call on record' },
    });
    expect(rejected.status).toBe(200);
    expect(z.object({ request: requestView }).parse(await rejected.json()).request.status).toBe(
      'rejected',
    );
    expect((await financeB.request(`refunds/${id}/approve`, { method: 'POST' })).status).toBe(409);
    expect((await creditNotes()).filter((note) => note.creditsNumber === receipt.number)).toEqual(
      [],
    );
    expect(
      (
        await financeB.request('refunds/00000000-0000-4000-8000-000000000000/approve', {
          method: 'POST',
        })
      ).status,
    ).toBe(404);
  });

  it('refuses a viewer, an unknown document, more than the rest and bad input, changing nothing', async () => {
    const { receipt } = await buyByCard('buyer@refused-refund.test');
    const before = { notes: (await creditNotes()).length, requests: (await requestRows()).length };
    const viewerAsks = await viewer.request('refunds', {
      body: { reference: receipt.number, amountMinor: 100, reason: 'Viewer' },
    });
    expect(viewerAsks.status).toBe(403);
    expect((await errorOf(viewerAsks)).Error).toBe('PermissionDenied');

    const unknown = await support.request('refunds', {
      body: { reference: 'INV-2026-99999', amountMinor: 100, reason: 'Unknown' },
    });
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).Error).toBe('NotFound');

    const tooMuch = await support.request('refunds', {
      body: { reference: receipt.number, amountMinor: receipt.grossMinor + 1, reason: 'Too much' },
    });
    expect(tooMuch.status).toBe(422);
    expect((await errorOf(tooMuch)).Error).toBe('TooMuch');

    for (const body of [
      { reference: receipt.number, amountMinor: 100 },
      { reference: receipt.number, amountMinor: 100, reason: 'x' },
      { reference: receipt.number, amountMinor: -5, reason: 'Negative' },
      { reference: receipt.number, amountMinor: 1.5, reason: 'Fraction' },
      { reference: 'INV 2026', amountMinor: 100, reason: 'Spaces' },
      { reference: receipt.number, amountMinor: 100, reason: 'Extra', extra: true },
    ]) {
      expect((await support.request('refunds', { body })).status, JSON.stringify(body)).toBe(400);
    }
    expect((await creditNotes()).length).toBe(before.notes);
    expect((await requestRows()).length).toBe(before.requests);
  });
});

describe.each(databaseTargets)('refunds from the console through Stripe on $name', (target) => {
  let world: OrderWorld;
  let t: TestApp;
  let fake: StripeFake;
  let financeA: ConsoleTestOperator;
  let financeB: ConsoleTestOperator;

  beforeAll(async () => {
    world = await openWorld(target, 'stripe', new Date('2026-06-01T10:00:00Z'));
    t = world.t;
    if (!world.fake) throw new Error('no Stripe fake');
    fake = world.fake;
    financeA = await signedInOperator(t, 'finance');
    financeB = await signedInOperator(t, 'finance');
  });
  afterAll(() => world.close());

  it('reaches Stripe exactly once per action, names Stripe’s credit note, and the rest waits for approval', async () => {
    const confirmed = await orderAndConfirm(t, enterpriseOrder('ap@console-stripe-refund.test'));
    const invoice = [...fake.invoices.values()].find(
      (row) => row.subscription === confirmed.subscriptionId,
    );
    if (!invoice) throw new Error('no Stripe invoice');
    fake.payInvoice(invoice.id);
    await handlePaymentEvent(syncDepsOf(t.deps), {
      id: 'evt_console_refund_paid',
      type: 'invoice.paid',
      subscriptionId: confirmed.subscriptionId,
    });
    const number = invoice.number ?? '';
    const creditNotesBefore = fake.requestsTo('POST', '/v1/credit_notes').length;
    const notes = () =>
      [...fake.creditNotes.values()].filter((note) => note.invoice === invoice.id);

    const form = { reference: number, amountMinor: 5_000, reason: 'Goodwill' };
    const [a, b] = await Promise.all([
      financeA.request('refunds', { body: form }),
      financeA.request('refunds', { body: form }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    const made = [answer.parse(await a.json()), answer.parse(await b.json())].find(
      (one) => !one.replayed,
    );
    expect(notes()).toHaveLength(1);
    expect(fake.refunds.size).toBe(1);
    expect(fake.requestsTo('POST', '/v1/credit_notes').length).toBe(creditNotesBefore + 1);
    expect(made?.request).toMatchObject({
      status: 'refunded',
      creditNoteNumber: notes()[0]?.number,
    });
    expect(notes()[0]).toMatchObject({
      amount: 5_000,
      memo: 'Goodwill',
      refunds: [{ amount_refunded: 5_000 }],
    });

    const preview = previewAnswer.parse(
      await (
        await financeA.request('refunds/preview', { body: { reference: number, reason: 'Rest' } })
      ).json(),
    );
    expect(preview).toMatchObject({
      preview: {
        creditNoteBy: 'provider',
        endsSubscription: true,
        subscriptionId: confirmed.subscriptionId,
      },
      needsApproval: true,
    });

    const rest = await financeA.request('refunds', {
      body: { reference: number, reason: 'Contract ended' },
    });
    expect(rest.status).toBe(202);
    const { id } = answer.parse(await rest.json()).request;
    expect(fake.refunds.size).toBe(1);
    expect((await financeA.request(`refunds/${id}/approve`, { method: 'POST' })).status).toBe(403);
    const approved = await financeB.request(`refunds/${id}/approve`, { method: 'POST' });
    expect(approved.status).toBe(200);
    expect(z.object({ request: requestView }).parse(await approved.json()).request).toMatchObject({
      status: 'refunded',
      endedSubscription: confirmed.subscriptionId,
    });
    expect(fake.refunds.size).toBe(2);
    expect(notes()).toHaveLength(2);
    expect(fake.subscriptions.get(confirmed.subscriptionId)?.status).toBe('canceled');
  });
});
