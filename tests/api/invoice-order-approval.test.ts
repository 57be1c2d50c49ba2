import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  approvalReason,
  readInvoiceApprovalAbove,
  reviewDueAt,
} from '#server/billing/invoices/invoice-approval.ts';
import { markLocalInvoicePaid } from '#server/billing/payments/local/local-invoices.ts';
import { handlePaymentEvent, syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import { createAuditLogRepository } from '#server/platform/audit/audit-log-repository.ts';
import { invoiceOrders, licences, subscriptions } from '#server/platform/db/schema.ts';
import { parseEnv } from '#server/env.ts';
import type { InvoiceCheckoutRequestInput } from '#shared/contracts/invoice-checkout.ts';
import {
  confirmationToken,
  confirmOrder,
  enterpriseOrder,
  placeOrder,
} from '#tests/security/support/invoice-orders.ts';
import { databaseTargets } from '../support/databases.ts';
import { runAdminOn } from '../support/licensing.ts';
import { signedInOperator } from '../support/console-operator.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { mailsTo } from './checkout-support.ts';

const inReview = z.strictObject({
  status: z.literal('in-review'),
  orderId: z.string(),
  reviewBy: z.string(),
  message: z.string(),
});

/** A small yearly Pro order: net below the default threshold (EUR 5,000). */
const proOrder = (billingEmail: string) => ({
  ...enterpriseOrder(billingEmail),
  edition: 'Pro' as const,
  quantity: 4,
});

describe('when an invoice order waits for finance', () => {
  it('reads INVOICE_APPROVAL_ABOVE as one amount, per currency, or 0 for every order', () => {
    expect(readInvoiceApprovalAbove(undefined)).toEqual({
      ok: true,
      aboveMinor: { EUR: 500_000, USD: 500_000 },
    });
    expect(readInvoiceApprovalAbove('0')).toEqual({ ok: true, aboveMinor: { EUR: 0, USD: 0 } });
    expect(readInvoiceApprovalAbove('eur:1000, USD:2500')).toEqual({
      ok: true,
      aboveMinor: { EUR: 100_000, USD: 250_000 },
    });
    for (const bad of ['-1', '5k', 'GBP:100', 'EUR:', 'EUR:1.5', '1e6']) {
      expect(readInvoiceApprovalAbove(bad).ok).toBe(false);
    }
    expect(() =>
      parseEnv({ PUBLIC_BASE_URL: 'http://localhost:3000', INVOICE_APPROVAL_ABOVE: 'lots' }),
    ).toThrow(/INVOICE_APPROVAL_ABOVE/);
    expect(() =>
      parseEnv({ PUBLIC_BASE_URL: 'http://localhost:3000', INVOICE_APPROVAL_FIRST_ORDER: 'maybe' }),
    ).toThrow(/INVOICE_APPROVAL_FIRST_ORDER/);
  });

  it('holds a first order and one above the threshold; a company that paid below it goes through', () => {
    const policy = { aboveMinor: { EUR: 500_000, USD: 500_000 }, firstOrder: 'review' as const };
    const order = { netMinor: 400_000, currency: 'EUR' as const };
    expect(approvalReason(policy, { ...order, paidBefore: false })).toBe('first-order');
    expect(approvalReason(policy, { ...order, paidBefore: true })).toBeNull();
    expect(approvalReason(policy, { ...order, netMinor: 500_001, paidBefore: true })).toBe(
      'above-threshold',
    );
    expect(
      approvalReason({ ...policy, aboveMinor: { EUR: 0, USD: 0 } }, { ...order, paidBefore: true }),
    ).toBe('above-threshold');
    expect(
      approvalReason({ ...policy, firstOrder: 'trust' }, { ...order, paidBefore: false }),
    ).toBeNull();
  });

  it('answers within two working days, weekends not counted', () => {
    // Friday → Tuesday; Tuesday → Thursday (end of day, UTC).
    expect(reviewDueAt(new Date('2026-11-27T15:00:00Z')).toISOString()).toBe(
      '2026-12-01T23:59:59.000Z',
    );
    expect(reviewDueAt(new Date('2026-12-01T09:00:00Z')).toISOString()).toBe(
      '2026-12-03T23:59:59.000Z',
    );
  });
});

describe.each(databaseTargets)('invoice orders approved before credit on $name', (target) => {
  let t: TestApp;
  const start = new Date('2026-03-02T10:00:00Z');
  beforeAll(async () => {
    // The production defaults: a company's first order and orders above EUR 5,000 net wait.
    t = await createTestApp(target, {
      now: start,
      env: { INVOICE_APPROVAL_FIRST_ORDER: 'review', INVOICE_APPROVAL_ABOVE: '' },
    });
  });
  afterAll(() => t.close());

  const db = () => t.deps.database.db;
  const orderRow = async (id: string) =>
    (await db().select().from(invoiceOrders).where(eq(invoiceOrders.id, id)))[0];
  const paidLicences = async () =>
    (await db().select().from(licences)).filter((row) => row.type === 'Paid').length;

  async function placeAndConfirm(body: InvoiceCheckoutRequestInput) {
    expect((await placeOrder(t, body)).status).toBe(201);
    return confirmOrder(t, await confirmationToken(t, body.billingEmail));
  }

  it('holds a new company’s Enterprise order: no key, no invoice until finance approves, then exactly as before', async () => {
    t.setNow(start);
    const body = enterpriseOrder('ap@new-company.test');
    const before = {
      licences: await paidLicences(),
      subscriptions: (await db().select().from(subscriptions)).length,
    };
    const confirmed = await placeAndConfirm(body);
    expect(confirmed.status).toBe(202);
    const review = inReview.parse(await confirmed.json());
    expect(review.reviewBy).toBe('2026-03-04T23:59:59.000Z');
    expect(review.message).toContain('4 March 2026');
    expect(await orderRow(review.orderId)).toMatchObject({
      status: 'awaiting_approval',
      // Enterprise 25 yearly is above EUR 5,000 net (a first order too).
      reviewReason: 'above-threshold',
      subscriptionId: null,
    });
    // Nothing was created: no licence to validate, no subscription, no invoice.
    expect(await paidLicences()).toBe(before.licences);
    expect((await db().select().from(subscriptions)).length).toBe(before.subscriptions);
    const kinds = (await mailsTo(t, body.billingEmail)).map((mail) => mail.kind);
    expect(kinds).toContain('invoice-order-in-review');
    expect(kinds).not.toContain('licence-key');
    // The waiting order holds its address, as an unpaid one does.
    const again = await placeOrder(t, body);
    expect(again.status).toBe(409);
    expect(z.object({ Error: z.string() }).parse(await again.json()).Error).toBe(
      'InvoiceOrderOpen',
    );

    const listed = await runAdminOn(t, 'invoice-orders', 'list', '--awaiting');
    expect(listed.out).toContain(
      `${review.orderId}  awaiting approval (above threshold, answer by 2026-03-04)`,
    );
    // A reason is required; then the key and the invoice go out as a confirmation did before.
    expect((await runAdminOn(t, 'invoice-orders', 'approve', review.orderId)).code).toBe(2);
    const approved = await runAdminOn(
      t,
      'invoice-orders',
      'approve',
      review.orderId,
      '--reason',
      'Company register and VAT ID checked',
    );
    expect(approved.code).toBe(0);
    expect(approved.out).toMatch(
      new RegExp(`^Approved ${review.orderId}: invoice INV-2026-\\d{5}`),
    );
    expect(await paidLicences()).toBe(before.licences + 1);
    expect((await mailsTo(t, body.billingEmail)).map((mail) => mail.kind)).toContain('licence-key');
    const row = await orderRow(review.orderId);
    expect(row).toMatchObject({ status: 'confirmed' });
    expect(row?.reviewedBy).toMatch(/^cli:/);
    const [event] = await createAuditLogRepository(db()).ofTarget('invoice_order', review.orderId);
    expect(event).toMatchObject({ action: 'invoice_order.confirmed' });
    expect(event?.details?.reason).toBe('Company register and VAT ID checked');
    // Approving twice changes nothing.
    const twice = await runAdminOn(
      t,
      'invoice-orders',
      'approve',
      review.orderId,
      '--reason',
      'again',
    );
    expect(twice.code).toBe(1);
    expect(twice.err).toContain('is confirmed, not waiting for approval');
    expect(await paidLicences()).toBe(before.licences + 1);
  });

  it('rejects with a reason the buyer reads; the address may order again', async () => {
    t.setNow(start);
    const body = proOrder('buyer@shell-company.test');
    const confirmed = await placeAndConfirm(body);
    const { orderId } = inReview.parse(await confirmed.json());
    expect(await orderRow(orderId)).toMatchObject({ reviewReason: 'first-order' });
    const rejected = await runAdminOn(
      t,
      'invoice-orders',
      'reject',
      orderId,
      '--reason',
      'We could not verify the company; please pay by card.',
    );
    expect(rejected.code).toBe(0);
    expect(await orderRow(orderId)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'We could not verify the company; please pay by card.',
    });
    const mail = (await mailsTo(t, body.billingEmail)).find(
      (row) => row.kind === 'invoice-order-rejected',
    );
    expect(mail?.textBody).toContain('We could not verify the company; please pay by card.');
    expect(
      (await runAdminOn(t, 'invoice-orders', 'reject', orderId, '--reason', 'again')).code,
    ).toBe(1);
    expect(
      (await runAdminOn(t, 'invoice-orders', 'reject', 'io_AAAAAAAAAAAAAAAA', '--reason', 'x y z'))
        .code,
    ).toBe(1);
    expect(
      (await runAdminOn(t, 'invoice-orders', 'reject', 'nope', '--reason', 'x y z')).code,
    ).toBe(2);
    expect((await placeOrder(t, body)).status).toBe(201);
  });

  it('lets a company that has paid order below the threshold at once; above it still waits', async () => {
    t.setNow(start);
    const first = enterpriseOrder('ap@paying-company.test');
    const confirmed = await placeAndConfirm(first);
    const { orderId } = inReview.parse(await confirmed.json());
    await runAdminOn(t, 'invoice-orders', 'approve', orderId, '--reason', 'known customer');
    const { invoiceNumber } = (await orderRow(orderId)) ?? {};
    const paid = await markLocalInvoicePaid({ db: db(), clock: t.deps.clock }, invoiceNumber ?? '');
    if (!paid.ok) throw new Error(paid.detail);
    for (const event of paid.events) await handlePaymentEvent(syncDepsOf(t.deps), event);

    // Another mailbox at the same company: below the threshold, straight through.
    const small = await placeAndConfirm(proOrder('it@paying-company.test'));
    expect(small.status).toBe(200);
    // Enterprise again is above EUR 5,000 net: it waits, paid before or not.
    const large = await placeAndConfirm(enterpriseOrder('cto@paying-company.test'));
    expect(large.status).toBe(202);
    expect(await orderRow(inReview.parse(await large.json()).orderId)).toMatchObject({
      reviewReason: 'above-threshold',
    });
  });

  it('holds the next order of a company whose only payment was refunded in full (decision 247)', async () => {
    t.setNow(start);
    const first = proOrder('ap@refunded-company.test');
    // A first order waits; approved and paid, then refunded whole.
    const confirmed = await placeAndConfirm(first);
    const { orderId } = inReview.parse(await confirmed.json());
    await runAdminOn(t, 'invoice-orders', 'approve', orderId, '--reason', 'looks fine');
    const { invoiceNumber = '' } = (await orderRow(orderId)) ?? {};
    const paid = await markLocalInvoicePaid({ db: db(), clock: t.deps.clock }, invoiceNumber ?? '');
    if (!paid.ok) throw new Error(paid.detail);
    for (const event of paid.events) await handlePaymentEvent(syncDepsOf(t.deps), event);
    // Paid: the next order below the threshold goes straight through.
    const before = await placeAndConfirm(proOrder('it@refunded-company.test'));
    expect(before.status).toBe(200);
    const refunded = await runAdminOn(
      t,
      'payments',
      'refund',
      invoiceNumber ?? '',
      '--reason',
      'ordered by mistake',
    );
    expect(refunded.code).toBe(0);
    // Everything paid back: the next order is a first order again.
    const next = await placeAndConfirm(proOrder('cfo@refunded-company.test'));
    expect(next.status).toBe(202);
    expect(await orderRow(inReview.parse(await next.json()).orderId)).toMatchObject({
      reviewReason: 'first-order',
    });
  });

  it('lets finance approve and reject in the console; a viewer reads the queue but cannot act', async () => {
    t.setNow(start);
    const finance = await signedInOperator(t, 'finance');
    const viewer = await signedInOperator(t, 'viewer');
    const first = await placeAndConfirm(proOrder('ap@console-approval.test'));
    const { orderId } = inReview.parse(await first.json());
    const queue = await viewer.request('invoice-orders/awaiting');
    expect(queue.status).toBe(200);
    expect(JSON.stringify(await queue.json())).toContain(orderId);
    expect(
      (await viewer.request(`invoice-orders/${orderId}/approve`, { body: { reason: 'looks ok' } }))
        .status,
    ).toBe(403);
    expect(
      (await finance.request(`invoice-orders/${orderId}/approve`, { body: { reason: '' } })).status,
    ).toBe(400);
    const approved = await finance.request(`invoice-orders/${orderId}/approve`, {
      body: { reason: 'Known reseller' },
    });
    expect(approved.status).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({
      status: 'confirmed',
      reviewedBy: `operator:${finance.id}`,
    });
    const again = await finance.request(`invoice-orders/${orderId}/reject`, {
      body: { reason: 'too late' },
    });
    expect(again.status).toBe(409);

    const second = await placeAndConfirm(proOrder('ap@console-reject.test'));
    const rejected = await finance.request(
      `invoice-orders/${inReview.parse(await second.json()).orderId}/reject`,
      { body: { reason: 'No company found under that name' } },
    );
    expect(rejected.status).toBe(200);
  });
});
