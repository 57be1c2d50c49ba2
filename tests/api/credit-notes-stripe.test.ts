import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  invoiceOrders,
  licences,
  paymentDocuments,
  subscriptions,
} from '#server/platform/db/schema.ts';
import { handlePaymentEvent, syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import {
  enterpriseOrder,
  openWorld,
  orderAndConfirm,
  type OrderWorld,
} from '#tests/security/support/invoice-orders.ts';
import { databaseTargets } from '../support/databases.ts';
import { runAdminWith } from '../support/licensing.ts';
import type { StripeFake } from '../support/stripe-fake.ts';
import type { TestApp } from '../support/test-app.ts';

const start = new Date('2026-06-01T10:00:00Z');

describe.each(databaseTargets)('refunds and cancellations through Stripe on $name', (target) => {
  let world: OrderWorld;
  let t: TestApp;
  let fake: StripeFake;
  let admin: (...argv: string[]) => ReturnType<typeof runAdminWith>;

  beforeAll(async () => {
    world = await openWorld(target, 'stripe', start);
    t = world.t;
    if (!world.fake) throw new Error('no Stripe fake');
    fake = world.fake;
    const env = {
      STRIPE_SECRET_KEY: t.deps.env.STRIPE_SECRET_KEY ?? '',
      STRIPE_WEBHOOK_SECRET: t.deps.env.STRIPE_WEBHOOK_SECRET ?? '',
      STRIPE_API_BASE_URL: fake.url,
    };
    admin = (...argv) => runAdminWith(t, env, ...argv);
  });
  afterAll(() => world.close());

  async function licenceOf(subscriptionId: string) {
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

  function invoiceOf(subscriptionId: string) {
    const invoice = [...fake.invoices.values()].find((row) => row.subscription === subscriptionId);
    if (!invoice) throw new Error('no Stripe invoice');
    return invoice;
  }

  it('cancelling an invoiced order credits its open invoice with a Stripe credit note', async () => {
    const billingEmail = 'ap@stripe-cancel.test';
    const confirmed = await orderAndConfirm(t, enterpriseOrder(billingEmail));
    const invoice = invoiceOf(confirmed.subscriptionId);
    const owed = invoice.amount_remaining;
    expect(owed).toBeGreaterThan(0);
    const [order] = await t.deps.database.db
      .select()
      .from(invoiceOrders)
      .where(eq(invoiceOrders.billingEmail, billingEmail));

    const cancelled = await admin(
      'invoice-orders',
      'cancel',
      order?.id ?? '',
      '--reason',
      'Fraud check failed',
    );
    expect(cancelled.code).toBe(0);
    const notes = [...fake.creditNotes.values()].filter((note) => note.invoice === invoice.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      amount: owed,
      type: 'pre_payment',
      memo: 'Fraud check failed',
      reason: 'order_change',
      refunds: [],
    });
    expect(invoice.amount_remaining).toBe(0);
    // Nothing was paid: the credit note closes it, it is no payment received.
    expect(invoice.amount_paid).toBe(0);
    expect(cancelled.out).toContain(
      `Invoice ${invoice.number} is credited (€${(owed / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} no longer owed): credit note ${String(notes[0]?.number)}`,
    );
    expect((await licenceOf(confirmed.subscriptionId))?.subscriptionStatus).toBe('canceled');
    // Stripe's documents are Stripe's: none of ours.
    expect(
      await t.deps.database.db
        .select()
        .from(paymentDocuments)
        .where(eq(paymentDocuments.kind, 'credit_note')),
    ).toEqual([]);
  });

  it('refunds part of a paid Stripe invoice, once per action, then the rest, ending the licence', async () => {
    const billingEmail = 'ap@stripe-refund.test';
    const confirmed = await orderAndConfirm(t, enterpriseOrder(billingEmail));
    const invoice = invoiceOf(confirmed.subscriptionId);
    const number = invoice.number ?? '';

    // Unpaid: refused, that is a cancellation.
    const unpaid = await admin('payments', 'refund', number, '--reason', 'Too early');
    expect(unpaid.code).toBe(1);
    expect(unpaid.err).toContain(`${number} is not paid`);
    expect(fake.requestsTo('POST', '/v1/credit_notes')).toHaveLength(1);

    fake.payInvoice(invoice.id);
    await handlePaymentEvent(syncDepsOf(t.deps), {
      id: 'evt_paid_refund',
      type: 'invoice.paid',
      subscriptionId: confirmed.subscriptionId,
    });
    const paid = invoice.amount_paid;

    const part = ['payments', 'refund', number, '--amount', '50.00', '--reason', 'Goodwill'];
    const first = await admin(...part);
    expect(first.code).toBe(0);
    const again = await admin(...part);
    expect(again.code).toBe(0);
    expect(again.out).toContain('Already refunded');
    const notes = () =>
      [...fake.creditNotes.values()].filter((note) => note.invoice === invoice.id);
    expect(notes()).toHaveLength(1);
    expect(fake.refunds.size).toBe(1);
    expect(notes()[0]).toMatchObject({
      amount: 5_000,
      type: 'post_payment',
      memo: 'Goodwill',
      refunds: [{ amount_refunded: 5_000 }],
    });
    // The SDK sent the action's idempotency key with the credit note.
    const created = fake.requestsTo('POST', '/v1/credit_notes').at(-1);
    expect(created?.idempotencyKey).toMatch(/^credit-[0-9a-f]{40}$/);
    expect(created?.body).toMatchObject({ amount: '5000', refund_amount: '5000' });
    expect((await licenceOf(confirmed.subscriptionId))?.subscriptionStatus).toBe('active');

    const tooMuch = await admin(
      'payments',
      'refund',
      invoice.id,
      '--amount',
      ((paid - 5_000 + 1) / 100).toFixed(2),
      '--reason',
      'Too much',
    );
    expect(tooMuch.code).toBe(1);
    expect(tooMuch.err).toContain(`left to refund: nothing was refunded`);
    expect(notes()).toHaveLength(1);

    const rest = await admin('payments', 'refund', number, '--reason', 'Contract ended');
    expect(rest.code).toBe(0);
    expect(rest.out).toContain('Stripe’s, which Stripe e-mails to the buyer');
    expect(rest.out).toContain(
      `subscription ${confirmed.subscriptionId} and its licence have ended`,
    );
    expect(notes().map((note) => note.amount)).toEqual([5_000, paid - 5_000]);
    expect(invoice.post_payment_credit_notes_amount).toBe(paid);
    expect(fake.subscriptions.get(confirmed.subscriptionId)?.status).toBe('canceled');
    expect((await licenceOf(confirmed.subscriptionId))?.subscriptionStatus).toBe('canceled');

    const unknown = await admin('payments', 'refund', 'NOPE-0001', '--reason', 'Nothing');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('No invoice or receipt NOPE-0001');
  });
});
