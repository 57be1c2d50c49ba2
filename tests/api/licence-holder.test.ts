import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  invoiceOrders,
  licences,
  localCheckoutSessions,
  localSubscriptions,
  subscriptions,
} from '#server/platform/db/schema.ts';
import { markLocalInvoicePaid } from '#server/billing/payments/local/local-invoices.ts';
import { sweepInvoiceReminders } from '#server/billing/subscriptions/sweep-invoice-reminders.ts';
import { handlePaymentEvent, syncDepsOf } from '#server/billing/subscriptions/sync-subscription.ts';
import type { InvoiceCheckoutRequestInput } from '#shared/contracts/invoice-checkout.ts';
import { licenceHolderMessages } from '#shared/contracts/licence-holder.ts';
import {
  confirmationToken,
  confirmedOrderSchema,
  confirmOrder,
  placeOrder,
} from '#tests/security/support/invoice-orders.ts';
import { databaseTargets } from '../support/databases.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import {
  createCheckout,
  issueTrial,
  licenceKeyPattern,
  mailsTo,
  outbox,
  payLocally,
  postCheckout,
  pro10YearlyEur,
  successCard,
} from './checkout-support.ts';

const DAY = 86_400_000;

/** A yearly Enterprise order by invoice of a German company, billed to its payables mailbox. */
const invoiceOrder = (billingEmail: string, holder?: string): InvoiceCheckoutRequestInput => ({
  edition: 'Enterprise',
  quantity: 25,
  billingPeriod: 'yearly',
  billingCurrency: 'EUR',
  companyName: 'Acme Holding GmbH',
  billingEmail,
  addressLine: 'Hauptstraße 1',
  postalCode: '10115',
  city: 'Berlin',
  country: 'DE',
  ...(holder === undefined ? {} : { licenceHolderEmail: holder }),
});

/** The licence a subscription's mirror points at. */
async function licenceOfSubscription(t: TestApp, subscriptionId: string) {
  const db = t.deps.database.db;
  const [mirror] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.subscriptionId, subscriptionId));
  if (!mirror?.licenceId) throw new Error('no licence attached');
  const [licence] = await db.select().from(licences).where(eq(licences.id, mirror.licenceId));
  if (!licence) throw new Error('licence gone');
  return { mirror, licence };
}

const kindsTo = async (t: TestApp, to: string) => (await mailsTo(t, to)).map((mail) => mail.kind);

describe.each(databaseTargets)(
  'a licence holder apart from the billing address on $name',
  (target) => {
    let t: TestApp;
    const start = new Date('2026-03-01T10:00:00Z');
    beforeAll(async () => {
      t = await createTestApp(target, { now: start });
    });
    afterAll(() => t.close());

    it('refuses the field on a free Starter checkout, a bad address, and beside another trial key (400 with the field, nothing stored)', async () => {
      const sessionsBefore = (await t.deps.database.db.select().from(localCheckoutSessions)).length;
      const starter = await postCheckout(t, {
        ...pro10YearlyEur,
        edition: 'Starter',
        quantity: 3,
        licenceHolderEmail: 'dev@acme-holder.test',
      });
      expect(starter.status).toBe(400);
      expect(await starter.json()).toMatchObject({
        Error: 'InvalidRequest',
        issues: [
          {
            field: 'licenceHolderEmail',
            message: expect.stringContaining(licenceHolderMessages.notForStarter),
          },
        ],
      });
      // Empty counts as none, on Starter too.
      const emptyOnStarter = await postCheckout(t, {
        ...pro10YearlyEur,
        edition: 'Starter',
        quantity: 3,
        licenceHolderEmail: '  ',
      });
      expect(emptyOnStarter.status).toBe(201);

      for (const bad of ['not-an-address', 'dev@', `${'a'.repeat(250)}@x.test`, 42]) {
        const response = await postCheckout(t, { ...pro10YearlyEur, licenceHolderEmail: bad });
        expect(response.status, String(bad)).toBe(400);
        expect(await response.json()).toMatchObject({
          Error: 'InvalidRequest',
          issues: [{ field: 'licenceHolderEmail' }],
        });
        const order = await placeOrder(t, {
          ...invoiceOrder('ap@acme-holder.test'),
          licenceHolderEmail: bad,
        });
        expect(order.status, String(bad)).toBe(400);
        expect(await order.json()).toMatchObject({ issues: [{ field: 'licenceHolderEmail' }] });
      }

      // A trial key to convert keeps its own address: another holder beside it is refused.
      const trial = await issueTrial(t, 'trialist@acme-holder.test');
      const beside = await postCheckout(t, {
        ...pro10YearlyEur,
        trialLicenseKeyToConvert: trial.key,
        licenceHolderEmail: 'someone-else@acme-holder.test',
      });
      expect(beside.status).toBe(400);
      expect(await beside.json()).toMatchObject({
        issues: [
          {
            field: 'licenceHolderEmail',
            message: expect.stringContaining(licenceHolderMessages.notWithTrialKey),
          },
        ],
      });
      // The trial's own mailbox, in another spelling, is no other holder.
      const same = await postCheckout(t, {
        ...pro10YearlyEur,
        trialLicenseKeyToConvert: trial.key,
        licenceHolderEmail: 'Trialist+cli@ACME-holder.test',
      });
      expect(same.status).toBe(201);
      const sessions = await t.deps.database.db.select().from(localCheckoutSessions);
      // Two sessions opened (the empty Starter one and the trial's), neither with a holder.
      expect(sessions).toHaveLength(sessionsBefore + 2);
      expect(sessions.map((row) => row.licenceHolderEmail)).toEqual(sessions.map(() => null));
      expect(await mailsTo(t, 'dev@acme-holder.test')).toEqual([]);
    });

    it('card: the key goes to the holder, the receipt and a note to the paying address; the holder’s trial is untouched', async () => {
      const holder = 'Dev.Person+cli@acme-card.test';
      const payer = 'ap@acme-card.test';
      // The holder already has a trial: naming them must not convert or take it over.
      const trial = await issueTrial(t, 'dev.person@acme-card.test');
      const { sessionId } = await createCheckout(t, {
        ...pro10YearlyEur,
        licenceHolderEmail: holder,
      });
      const [session] = await t.deps.database.db
        .select()
        .from(localCheckoutSessions)
        .where(eq(localCheckoutSessions.id, sessionId));
      expect(session).toMatchObject({
        licenceHolderEmail: holder,
        licenceHolderEmailNormalized: 'dev.person@acme-card.test',
      });
      // Nothing reaches the holder before the payment.
      expect((await outbox(t)).filter((mail) => mail.toAddress === holder)).toEqual([]);

      const paid = await payLocally(t, sessionId, { email: payer, card: successCard });
      expect(paid.status).toBe(303);
      const [subscription] = await t.deps.database.db
        .select()
        .from(localSubscriptions)
        .where(eq(localSubscriptions.licenceHolderEmail, holder));
      expect(subscription).toBeDefined();
      const { mirror, licence } = await licenceOfSubscription(t, subscription?.id ?? '');
      expect(licence).toMatchObject({ email: holder, type: 'Paid', edition: 'Pro', quantity: 10 });
      expect(mirror.billingEmail).toBe(payer);

      const [keyMail, ...moreToHolder] = await mailsTo(t, holder);
      expect(moreToHolder).toEqual([]);
      expect(keyMail?.kind).toBe('licence-key');
      expect(keyMail?.textBody).toMatch(licenceKeyPattern);
      // It names who bought it and where the payment mails go; it carries no document.
      expect(keyMail?.textBody).toContain(
        `Muster Software GmbH (${payer}) bought this licence for you (Orgsmith Pro, 10 orgs) and named you its holder.`,
      );
      expect(keyMail?.textBody).toContain(`The invoices and payment e-mails go to ${payer}.`);
      expect(keyMail?.textBody).not.toMatch(/receipt/i);
      // The holder may keep their trial key instead, by their own mailbox's click only.
      expect(keyMail?.textBody).toContain('Keep using your trial key');

      const toPayer = await mailsTo(t, payer);
      expect(toPayer.map((mail) => mail.kind)).toEqual(['licence-sent-to-holder']);
      expect(toPayer[0]?.subject).toBe(`Your Orgsmith licence key went to ${holder}`);
      expect(toPayer[0]?.textBody).not.toMatch(licenceKeyPattern);
      expect(toPayer[0]?.textBody).toMatch(/Download receipt INV-\d{4}-\d{5} \(PDF\)/);

      const [untouched] = await t.deps.database.db
        .select()
        .from(licences)
        .where(eq(licences.id, trial.id));
      expect(untouched).toMatchObject({ type: 'Trial', subscriptionId: null, customerId: null });
    });

    it('card: the paying mailbox named as holder, in another spelling, is no holder', async () => {
      const payer = 'j.doe@gmail.com';
      const { sessionId } = await createCheckout(t, {
        ...pro10YearlyEur,
        licenceHolderEmail: 'J.Doe+Orgsmith@googlemail.com',
      });
      await payLocally(t, sessionId, { email: payer, card: successCard });
      const [subscription] = await t.deps.database.db
        .select()
        .from(localSubscriptions)
        .where(eq(localSubscriptions.licenceHolderEmailNormalized, 'jdoe@gmail.com'));
      const { mirror, licence } = await licenceOfSubscription(t, subscription?.id ?? '');
      expect(licence.email).toBe(payer);
      expect(mirror.billingEmail).toBeNull();
      expect(await kindsTo(t, payer)).toEqual(['licence-key']);
      expect(await mailsTo(t, 'J.Doe+Orgsmith@googlemail.com')).toEqual([]);
    });

    it('invoice: the holder gets the key only once the billing mailbox confirmed; invoice, reminders and payment confirmation go to billing', async () => {
      const payer = 'ap@acme-invoice-holder.test';
      const holder = 'dev@acme-invoice-holder.test';
      const trial = await issueTrial(t, holder);
      t.setNow(start);
      const placed = await placeOrder(t, invoiceOrder(payer, holder));
      expect(placed.status).toBe(201);
      const [stored] = await t.deps.database.db
        .select()
        .from(invoiceOrders)
        .where(eq(invoiceOrders.billingEmail, payer));
      expect(stored?.licenceHolderEmail).toBe(holder);
      // Kept apart from the order's details, so an erasure of the holder can take it out.
      expect(JSON.stringify(stored?.details)).not.toContain(holder);
      const [confirmation] = await mailsTo(t, payer);
      expect(confirmation?.kind).toBe('invoice-order-confirmation');
      expect(confirmation?.textBody).toContain(`Licence key to: ${holder}`);
      // An unconfirmed order sends the holder nothing: a stranger cannot mail them through us.
      expect(await mailsTo(t, holder)).toEqual([]);

      const confirmed = await confirmOrder(t, await confirmationToken(t, payer));
      expect(confirmed.status).toBe(200);
      const order = confirmedOrderSchema.parse(await confirmed.json());
      const { mirror, licence } = await licenceOfSubscription(t, order.subscriptionId);
      expect(licence).toMatchObject({ email: holder, type: 'Paid', edition: 'Enterprise' });
      expect(mirror.billingEmail).toBe(payer);

      expect(await kindsTo(t, holder)).toEqual(['licence-key']);
      const [keyMail] = await mailsTo(t, holder);
      expect(keyMail?.textBody).toMatch(licenceKeyPattern);
      expect(keyMail?.textBody).toContain(
        `Acme Holding GmbH (${payer}) bought this licence for you`,
      );
      expect(keyMail?.textBody).not.toContain('Download invoice');
      const note = (await mailsTo(t, payer)).find((mail) => mail.kind === 'licence-sent-to-holder');
      expect(note?.textBody).toContain(`Download invoice ${order.invoiceNumber} (PDF)`);
      expect(note?.textBody).toContain(`Invoice: ${order.invoiceNumber}, unpaid, due `);
      expect(note?.textBody).not.toMatch(licenceKeyPattern);

      // The holder's trial is neither converted nor taken over, even once the invoice is paid.
      const sync = syncDepsOf(t.deps);
      t.setNow(new Date(start.getTime() + 30 * DAY));
      expect((await sweepInvoiceReminders(sync)).reminded).toBe(1);
      expect(await kindsTo(t, payer)).toContain('invoice-reminder');
      expect(await kindsTo(t, holder)).not.toContain('invoice-reminder');
      const paid = await markLocalInvoicePaid(
        { db: t.deps.database.db, clock: t.deps.clock },
        order.invoiceNumber,
      );
      if (!paid.ok) throw new Error(paid.detail);
      for (const event of paid.events) await handlePaymentEvent(sync, event);
      expect(await kindsTo(t, payer)).toContain('payment-received');
      expect(await kindsTo(t, holder)).toEqual(['licence-key']);
      const [untouched] = await t.deps.database.db
        .select()
        .from(licences)
        .where(eq(licences.id, trial.id));
      expect(untouched).toMatchObject({ type: 'Trial', subscriptionId: null });
      t.setNow(start);
    });

    it('invoice: the billing mailbox named as holder is stored as none', async () => {
      const payer = 'books@acme-same.test';
      const placed = await placeOrder(t, invoiceOrder(payer, ' Books+Licence@ACME-same.test '));
      expect(placed.status).toBe(201);
      const [stored] = await t.deps.database.db
        .select()
        .from(invoiceOrders)
        .where(eq(invoiceOrders.billingEmail, payer));
      expect(stored?.licenceHolderEmail).toBeNull();
      const [confirmation] = await mailsTo(t, payer);
      expect(confirmation?.textBody).not.toContain('Licence key to');
      const confirmed = await confirmOrder(t, await confirmationToken(t, payer));
      const order = confirmedOrderSchema.parse(await confirmed.json());
      const { licence } = await licenceOfSubscription(t, order.subscriptionId);
      expect(licence.email).toBe(payer);
      expect(await kindsTo(t, payer)).toEqual(['invoice-order-confirmation', 'licence-key']);
    });
  },
);
