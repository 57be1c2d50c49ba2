import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emailOutbox, invoiceOrders, licences, subscriptions } from '#server/platform/db/schema.ts';
import { cancelInvoiceOrderAsOperator } from '#server/billing/invoices/cancel-invoice-order.ts';
import { readInvoiceOrderLink } from '#server/billing/invoices/read-invoice-order-link.ts';
import { markLocalInvoicePaid } from '#server/billing/payments/local/local-invoices.ts';
import { handlePaymentEvent, syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import { databaseTargets } from '../support/databases.ts';
import { runAdminOn } from '../support/licensing.ts';
import {
  cancelOrder,
  confirmationToken,
  confirmedOrderSchema,
  confirmOrder,
  enterpriseOrder,
  openWorld,
  orderAndConfirm,
  placeOrder,
  providers,
  whatExists,
  type OrderWorld,
} from './support/invoice-orders.ts';

/**
 * Issue 25, item 3 (decision 153): an order paid by invoice sends nothing but a confirmation link
 * to its billing address — no licence key, no invoice — until that link's page is confirmed
 * (a POST; a GET changes nothing). One confirmed unpaid order per mailbox, three per company
 * e-mail domain (decision 209); more are refused with a way out (contact sales). On both
 * databases and both payment providers.
 */

const start = new Date('2026-03-01T10:00:00Z');

describe.each(databaseTargets)('invoice orders prove the address first on $name', (target) => {
  describe.each(providers)('with the %s provider', (provider) => {
    let world: OrderWorld;
    beforeAll(async () => {
      world = await openWorld(target, provider, start);
    });
    afterAll(() => world.close());
    beforeEach(() => world.t.setNow(start));

    it('five orders for one mailbox (plus-tags, case): each waits for its link, nothing is issued or invoiced; the first confirmed holds the mailbox', async () => {
      const { t } = world;
      const variants = [
        'finance@mailbox-io.test',
        'Finance+q1@Mailbox-IO.test',
        'FINANCE@MAILBOX-IO.TEST',
        'finance+other@mailbox-io.test',
        ' finance+x@mailbox-io.test ',
      ];
      const first = await placeOrder(t, enterpriseOrder(variants[0] ?? ''));
      expect(first.status).toBe(201);
      const placed: unknown = await first.json();
      expect(placed).toMatchObject({
        status: 'confirmation-sent',
        billingEmail: 'finance@mailbox-io.test',
        message: expect.stringContaining('Check your inbox to confirm'),
      });
      // No order, invoice or licence to speak of yet.
      expect(Object.keys(placed ?? {}).sort()).toEqual([
        'billingEmail',
        'confirmBy',
        'message',
        'status',
      ]);

      // A pending order holds nothing (it may be a stranger's, decision 209): each waits too.
      for (const variant of variants.slice(1)) {
        expect((await placeOrder(t, enterpriseOrder(variant))).status).toBe(201);
      }

      expect(await whatExists(world)).toMatchObject({
        licences: 0,
        subscriptions: 0,
        providerSubscriptions: 0,
        sentInvoices: 0,
        licenceMails: 0,
        mails: 5,
      });
      if (world.fake) expect(world.fake.requestsTo('POST', '/v1/customers')).toHaveLength(0);
      for (const mail of await t.deps.database.db.select().from(emailOutbox)) {
        expect(mail.kind).toBe('invoice-order-confirmation');
        expect(mail.textBody).not.toMatch(/ORGS(-[0-9A-Z]{4}){7}/);
      }

      // The first link confirmed, the mailbox has its open order: the other links are refused.
      const tokens = await Promise.all(
        variants.map((variant) => confirmationToken(t, variant.trim())),
      );
      expect((await confirmOrder(t, tokens[0] ?? '')).status).toBe(200);
      for (const token of tokens.slice(1)) {
        const refused = await confirmOrder(t, token);
        expect(refused.status).toBe(409);
        const body: unknown = await refused.json();
        expect(body).toMatchObject({ Error: 'InvoiceOrderOpen' });
        expect(JSON.stringify(body)).toContain('contact sales');
      }
      expect(await whatExists(world)).toMatchObject({ licences: 1, subscriptions: 1 });
    });

    it('a GET of the link changes nothing; of two confirmations at once one creates the subscription; the link works once', async () => {
      const { t } = world;
      const email = 'ap@once-io.test';
      expect((await placeOrder(t, enterpriseOrder(email))).status).toBe(201);
      const token = await confirmationToken(t, email);
      const before = await whatExists(world);
      const link = `/invoice-order?token=${token}`;

      // What a mail scanner does: open the link, and the API paths with the token in the query.
      for (let i = 0; i < 3; i++) {
        for (const path of [link, `/account/v1/checkout/invoice/confirm?token=${token}`]) {
          expect((await t.app.request(path)).status).toBeLessThan(500);
        }
        // The landing page's loader reads the order without using it.
        expect(await readInvoiceOrderLink(syncDepsOf(t.deps), token)).toMatchObject({
          state: 'ready',
          billingEmail: email,
          companyName: 'Acme Holding GmbH',
        });
      }
      expect(await whatExists(world)).toEqual(before);
      const [pending] = await t.deps.database.db
        .select()
        .from(invoiceOrders)
        .where(eq(invoiceOrders.billingEmail, email));
      expect(pending?.status).toBe('pending');
      // Only a keyed hash of the token is stored.
      expect(JSON.stringify(pending)).not.toContain(token);

      const answers = await Promise.all([confirmOrder(t, token), confirmOrder(t, token)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410]);
      const winner = answers.find((answer) => answer.status === 200);
      const order = confirmedOrderSchema.parse(await winner?.json());
      expect(order.licenceEmail).toBe(email);
      const after = await whatExists(world);
      expect(after).toMatchObject({
        licences: before.licences + 1,
        subscriptions: before.subscriptions + 1,
        providerSubscriptions: before.providerSubscriptions + 1,
        sentInvoices: before.sentInvoices + 1,
        licenceMails: before.licenceMails + 1,
      });
      const [mirror] = await t.deps.database.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.subscriptionId, order.subscriptionId));
      const [licence] = await t.deps.database.db
        .select()
        .from(licences)
        .where(eq(licences.id, mirror?.licenceId ?? '00000000-0000-0000-0000-000000000000'));
      expect(licence).toMatchObject({ status: 'Active', edition: 'Enterprise', email });

      // Used: a third confirmation, a cancellation and the page all say the link is done.
      expect((await confirmOrder(t, token)).status).toBe(410);
      expect((await cancelOrder(t, token)).status).toBe(410);
      expect(await readInvoiceOrderLink(syncDepsOf(t.deps), token)).toEqual({ state: 'invalid' });
      expect(await whatExists(world)).toEqual(after);

      // Confirmed but unpaid still holds the mailbox.
      const again = await placeOrder(t, enterpriseOrder('AP+2@once-io.test'));
      expect(again.status).toBe(409);
      expect(await again.json()).toMatchObject({ Error: 'InvoiceOrderOpen' });
    });

    it('a forged, malformed or expired link is refused and changes nothing', async () => {
      const { t } = world;
      const email = 'late@expired-io.test';
      expect((await placeOrder(t, enterpriseOrder(email))).status).toBe(201);
      const token = await confirmationToken(t, email);
      const before = await whatExists(world);
      expect((await confirmOrder(t, 'A'.repeat(32))).status).toBe(410);
      expect((await confirmOrder(t, 'x')).status).toBe(410);
      expect((await confirmOrder(t, 'x'.repeat(101))).status).toBe(400);
      t.setNow(new Date(start.getTime() + 24 * 3_600_000 + 1000));
      expect((await confirmOrder(t, token)).status).toBe(410);
      expect(await whatExists(world)).toEqual(before);
      // An expired order no longer holds the mailbox.
      expect((await placeOrder(t, enterpriseOrder(email))).status).toBe(201);
    });

    it('the buyer cancels through the link: the link dies and the mailbox may order again', async () => {
      const { t } = world;
      const email = 'notme@cancel-io.test';
      expect((await placeOrder(t, enterpriseOrder(email))).status).toBe(201);
      const token = await confirmationToken(t, email);
      expect((await cancelOrder(t, token)).status).toBe(204);
      expect((await confirmOrder(t, token)).status).toBe(410);
      expect((await placeOrder(t, enterpriseOrder(email))).status).toBe(201);
    });

    it('caps open orders per e-mail domain at three confirmed unpaid ones, at ordering and at confirming', async () => {
      const { t } = world;
      const before = await whatExists(world);
      for (const name of ['a', 'b', 'c'])
        await orderAndConfirm(t, enterpriseOrder(`${name}@catchall-io.test`));
      const fourth = await placeOrder(t, enterpriseOrder('d@catchall-io.test'));
      expect(fourth.status).toBe(409);
      const body: unknown = await fourth.json();
      expect(body).toMatchObject({ Error: 'InvoiceOrderDomainLimit' });
      expect(JSON.stringify(body)).toContain('contact sales');
      // Subdomains of the catch-all domain share its cap.
      for (const address of ['d@x1.catchall-io.test', 'e@deep.x2.catchall-io.test']) {
        const viaSubdomain = await placeOrder(t, enterpriseOrder(address));
        expect(viaSubdomain.status).toBe(409);
        expect(await viaSubdomain.json()).toMatchObject({ Error: 'InvoiceOrderDomainLimit' });
      }

      // Four links at another domain at once: the fourth confirmation is refused.
      const names = ['a', 'b', 'c', 'd'];
      for (const name of names) {
        expect((await placeOrder(t, enterpriseOrder(`${name}@rotating-io.test`))).status).toBe(201);
      }
      const tokens = await Promise.all(
        names.map((name) => confirmationToken(t, `${name}@rotating-io.test`)),
      );
      const confirmations = await Promise.all(tokens.map((token) => confirmOrder(t, token)));
      expect(confirmations.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 409]);
      expect((await whatExists(world)).licences).toBe(before.licences + 6);
    });

    it('an operator lists open orders and cancels a suspicious confirmed one: its licence ends', async () => {
      const { t } = world;
      const email = 'suspicious@operator-io.test';
      const order = await orderAndConfirm(t, enterpriseOrder(email));
      const [row] = await t.deps.database.db
        .select()
        .from(invoiceOrders)
        .where(eq(invoiceOrders.billingEmail, email));
      if (!row) throw new Error('no order row');
      if (provider === 'local') {
        const listed = await runAdminOn(t, 'invoice-orders', 'list', '--open');
        expect(listed.out).toContain(row.id);
        expect(listed.out).toContain('confirmed, unpaid');
        const cancelled = await runAdminOn(t, 'invoice-orders', 'cancel', row.id);
        expect(cancelled).toMatchObject({ code: 0 });
        expect(cancelled.out).toContain(`subscription ${order.subscriptionId} has ended`);
      } else {
        const cancelled = await cancelInvoiceOrderAsOperator(syncDepsOf(t.deps), row.id);
        expect(cancelled).toMatchObject({ ok: true, endedSubscription: order.subscriptionId });
      }
      const [mirror] = await t.deps.database.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.subscriptionId, order.subscriptionId));
      const [licence] = await t.deps.database.db
        .select()
        .from(licences)
        .where(eq(licences.email, email));
      expect(mirror?.endedAt).not.toBeNull();
      expect(licence?.status).not.toBe('Active');
      // The mailbox is free again.
      expect((await placeOrder(t, enterpriseOrder(email))).status).toBe(201);
    });

    if (provider === 'local') {
      it('a paid invoice frees the mailbox for its next order', async () => {
        const { t } = world;
        const email = 'payer@paid-io.test';
        const order = await orderAndConfirm(t, enterpriseOrder(email));
        expect((await placeOrder(t, enterpriseOrder(email))).status).toBe(409);
        const paid = await markLocalInvoicePaid(
          { db: t.deps.database.db, clock: t.deps.clock },
          order.invoiceNumber,
        );
        if (!paid.ok) throw new Error('not paid');
        for (const event of paid.events) await handlePaymentEvent(syncDepsOf(t.deps), event);
        expect((await placeOrder(t, enterpriseOrder(email))).status).toBe(201);
      });
    }
  });
});
